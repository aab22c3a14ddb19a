export default /* sql */ `
-- eSewa's v1 form has no signature, so its pid proves nothing: each post of a pid is a payment of its
-- own (with that post's addresses and amounts), and an earlier unpaid post never stands in the way.
-- One paid payment per order still holds (payments_one_paid_per_order). The signed v2 form's
-- transaction_uuid still names one payment.
DROP INDEX payments_door_order;
CREATE UNIQUE INDEX payments_door_order ON payments (merchant_id, environment, door, purchase_order_id)
  WHERE door = 'esewa-v2';
`;
