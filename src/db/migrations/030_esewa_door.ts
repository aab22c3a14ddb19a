export default /* sql */ `
-- eSewa's ePay is a second door onto the same payments. A payment records which door
-- started it (the v2 web checkout for every payment made before) and what that door needs to send
-- the payer back (eSewa's product code and failure address), which only the door reads.
ALTER TABLE payments ADD COLUMN door text NOT NULL DEFAULT 'khalti-v2'
  CHECK (door IN ('khalti-v2', 'esewa-v2', 'esewa-v1'));
ALTER TABLE payments ADD COLUMN door_fields jsonb;
-- On eSewa's doors the merchant's id for the payment (transaction_uuid, v1's pid) names one payment:
-- posted again, it resumes that payment. The v2 web checkout opens many pidx per order, as before.
CREATE UNIQUE INDEX payments_door_order ON payments (merchant_id, environment, door, purchase_order_id)
  WHERE door <> 'khalti-v2';

-- Per merchant and environment an eSewa product code and HMAC secret key. The key signs answers, so
-- it is kept sealed (secrets/seal.ts), not hashed; the one before a rotation works until
-- previous_revokes_at. The demo merchant also answers, in test only, to eSewa's published test pair.
CREATE TABLE esewa_credentials (
  product_code text PRIMARY KEY,
  merchant_id bigint NOT NULL REFERENCES merchants (id),
  environment text NOT NULL CHECK (environment IN ('test', 'live')),
  secret_key_sealed text NOT NULL,
  secret_key_prefix text NOT NULL,
  previous_secret_key_sealed text,
  previous_revokes_at timestamptz,
  published boolean NOT NULL DEFAULT false CHECK (NOT published OR environment = 'test'),
  created_at timestamptz NOT NULL,
  rotated_at timestamptz
);
CREATE UNIQUE INDEX esewa_credentials_merchant ON esewa_credentials (merchant_id, environment) WHERE NOT published;
`;
