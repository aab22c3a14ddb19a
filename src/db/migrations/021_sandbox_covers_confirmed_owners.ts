export default /* sql */ `
-- In the test environment a refund is never refused for the merchant's balance.
-- What the merchant's balance lacks is covered by the sandbox: a journal of its own kind,
-- 'sandbox_cover', from the test environment's funding account (the one that keeps sandbox wallets
-- funded) to the merchant, written in the refund's transaction and naming the refund's transaction
-- record. At most one per refund; never in live. The new rows only are checked (NOT VALID): no
-- existing journal has the kind or the column, and a big journals table is not scanned under lock.
ALTER TABLE journals DROP CONSTRAINT journals_kind_check;
ALTER TABLE journals ADD CONSTRAINT journals_kind_check
  CHECK (kind IN ('payment', 'refund', 'topup', 'payout', 'payout_paid', 'payout_failed', 'sandbox_cover')) NOT VALID;
-- No foreign key, as for the ledger's other references (migration 010): ledger verify proves it.
ALTER TABLE journals ADD COLUMN refund_record_id bigint;
ALTER TABLE journals ADD CONSTRAINT journals_sandbox_cover_of_a_refund
  CHECK ((kind = 'sandbox_cover') = (refund_record_id IS NOT NULL)) NOT VALID;
ALTER TABLE journals ADD CONSTRAINT journals_sandbox_cover_in_test
  CHECK (kind <> 'sandbox_cover' OR environment = 'test') NOT VALID;
CREATE UNIQUE INDEX journals_one_cover_per_refund ON journals (refund_record_id) WHERE refund_record_id IS NOT NULL;

-- A merchant made by an operator (bhuktani merchant create) has its owner's e-mail
-- confirmed, as the docs said; the command left it unconfirmed. Such a merchant is the one that is
-- approved (or suspended since) without ever having applied; its founding user has the merchant's
-- e-mail and was made in the merchant's transaction (the same created_at).
UPDATE merchant_users u SET email_verified_at = u.created_at
  FROM merchants m
 WHERE m.id = u.merchant_id AND m.applied_at IS NULL AND m.status IN ('approved', 'suspended')
   AND u.email_verified_at IS NULL AND u.removed_at IS NULL
   AND lower(u.email) = lower(m.email) AND u.created_at = m.created_at;
`;
