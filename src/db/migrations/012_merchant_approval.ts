export default /* sql */ `
-- Merchant approval: a merchant signed up on the website starts 'new' (test
-- only), applies with its business details, and takes live payments once an operator approves it.
-- Merchants that exist already were made by operators (or signed up before vetting existed): approved.
ALTER TABLE merchants ADD COLUMN status text NOT NULL DEFAULT 'approved'
  CHECK (status IN ('new', 'applied', 'approved', 'rejected', 'suspended'));
-- Every insert says which status it makes (the website 'new', an operator's command 'approved').
ALTER TABLE merchants ALTER COLUMN status DROP DEFAULT;
-- Why the last decision was made (a rejection or suspension shows it to the merchant), and when.
ALTER TABLE merchants ADD COLUMN status_reason text;
ALTER TABLE merchants ADD COLUMN status_changed_at timestamptz;
-- When the merchant last applied: the console's queue is oldest application first.
ALTER TABLE merchants ADD COLUMN applied_at timestamptz;
CREATE INDEX merchants_waiting ON merchants (applied_at) WHERE status = 'applied';

-- What the merchant tells the operators about its business when it applies to go live. Its
-- settlement bank account is in merchant_bank_accounts (migration 011).
CREATE TABLE merchant_business_details (
  merchant_id bigint PRIMARY KEY REFERENCES merchants (id),
  legal_name text NOT NULL,
  business_type text NOT NULL,
  pan_number text NOT NULL,
  address text NOT NULL,
  contact_person text NOT NULL,
  phone text NOT NULL,
  website text NOT NULL,
  updated_at timestamptz NOT NULL
);
`;
