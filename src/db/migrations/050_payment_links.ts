export default /* sql */ `
-- Payment links. A merchant's link (a short public code, /l/<code>) starts ordinary
-- payments of its merchant and environment: a fixed amount, or one the payer chooses between a
-- minimum and a maximum; optionally an expiry, a most number of payments, and which of the payer's
-- name, phone and e-mail to ask.
CREATE TABLE payment_links (
  id bigserial PRIMARY KEY,
  idx text NOT NULL UNIQUE,
  code text NOT NULL UNIQUE,
  merchant_id bigint NOT NULL REFERENCES merchants (id),
  environment text NOT NULL CHECK (environment IN ('test', 'live')),
  name text NOT NULL,
  description text,
  amount bigint CHECK (amount >= 10),
  min_amount bigint CHECK (min_amount >= 10),
  max_amount bigint,
  CHECK ((amount IS NOT NULL AND min_amount IS NULL AND max_amount IS NULL)
      OR (amount IS NULL AND min_amount IS NOT NULL AND max_amount IS NOT NULL AND min_amount <= max_amount)),
  expires_at timestamptz,
  max_payments integer CHECK (max_payments >= 1),
  -- Payments of the link that hold or took the money (Pending, Completed and refunded ones). Moved by
  -- the statement that completes (or holds) one of them, and back by the operator's cancel of a held
  -- one; the check makes a completion past max_payments fail with everything it wrote, so racing
  -- payers on a link with one payment left end with exactly one paid and the others not charged.
  payments_taken integer NOT NULL DEFAULT 0 CHECK (payments_taken >= 0),
  CONSTRAINT payment_links_max_payments CHECK (max_payments IS NULL OR payments_taken <= max_payments),
  ask text[] NOT NULL DEFAULT '{}' CHECK (ask <@ ARRAY['name', 'phone', 'email']),
  active boolean NOT NULL DEFAULT true,
  -- 'api', or the dashboard user's e-mail.
  created_by text NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX payment_links_merchant ON payment_links (merchant_id, environment, id DESC);

-- The link a payment was started from (its idx, as the API and the webhooks name it), on the payment
-- and on its transaction records, so the list, the CSV and the webhooks say it without a join.
ALTER TABLE payments ADD COLUMN payment_link text REFERENCES payment_links (idx);
CREATE INDEX payments_payment_link ON payments (payment_link, created_at DESC) WHERE payment_link IS NOT NULL;
ALTER TABLE transactions ADD COLUMN payment_link text;
`;
