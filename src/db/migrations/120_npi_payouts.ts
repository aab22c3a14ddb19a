export default /* sql */ `
-- Payouts through NCHL's NPI (src/settlements/npi-payouts.ts).
--
-- A settlement account names its bank by NCHL's 4-digit code (and, when known, its branch's code):
-- NPI routes by them. A payout keeps them as it keeps the rest of the account, and says why it
-- waits while it cannot go (an account not verified, or refused).
ALTER TABLE merchant_bank_accounts ADD COLUMN bank_code text CHECK (bank_code ~ '^[0-9]{4}$'),
  ADD COLUMN branch_code text CHECK (branch_code ~ '^[A-Za-z0-9]{1,4}$');
ALTER TABLE payouts ADD COLUMN bank_code text, ADD COLUMN branch_code text, ADD COLUMN waiting_reason text;

-- What NPI's account validation said of an account, per environment's rail: a full match, a partial
-- match (NPI's score) or another name (both wait for an operator's approval), a refusal, or no
-- answer (asked again). One row per account as the merchant gave it: a change is a new account.
CREATE TABLE account_checks (
  id bigserial PRIMARY KEY,
  merchant_id bigint NOT NULL REFERENCES merchants (id),
  environment text NOT NULL CHECK (environment IN ('test', 'live')),
  bank_code text NOT NULL,
  account_number text NOT NULL,
  account_name text NOT NULL,
  outcome text NOT NULL CHECK (outcome IN ('match', 'partial', 'refused', 'unknown')),
  score integer,
  message text NOT NULL,
  branch_code text,
  checked_at timestamptz NOT NULL,
  approved_by text,
  approved_at timestamptz,
  CHECK ((approved_by IS NULL) = (approved_at IS NULL)),
  CHECK (approved_by IS NULL OR outcome = 'partial'),
  UNIQUE (merchant_id, environment, bank_code, account_number, account_name)
);
CREATE INDEX account_checks_waiting ON account_checks (environment, checked_at) WHERE outcome = 'partial' AND approved_by IS NULL;

-- A payout as NPI moves it. Its ids are written with the move to Processing, before anything is
-- sent, and never change: a lost or unclear answer is asked of NPI's reports by them, and a posting
-- NPI never received goes again under the same ids (NPI refuses a batch id it already holds).
-- status: unsent (not yet, or NPI took nothing), sent (NPI may hold it: the reports decide),
-- paid and failed (NPI's final word, with the payout's move in the same transaction).
CREATE TABLE npi_transfers (
  payout_id bigint PRIMARY KEY REFERENCES payouts (id),
  environment text NOT NULL CHECK (environment IN ('test', 'live')),
  rail text NOT NULL CHECK (rail IN ('cips', 'ips')),
  batch_id text NOT NULL,
  instruction_id text NOT NULL UNIQUE,
  end_to_end_id text NOT NULL,
  amount bigint NOT NULL CHECK (amount > 0),
  creditor_agent text NOT NULL,
  creditor_branch text NOT NULL,
  creditor_account text NOT NULL,
  creditor_name text NOT NULL,
  status text NOT NULL CHECK (status IN ('unsent', 'sent', 'paid', 'failed')),
  -- NPI's last word on it, or why it could not be had.
  detail text,
  nchl_reference text,
  posts integer NOT NULL DEFAULT 0,
  posted_at timestamptz,
  checks integer NOT NULL DEFAULT 0,
  -- An instance posting or asking about it holds it until then; the next look is due at next_at.
  lease_until timestamptz,
  next_at timestamptz NOT NULL,
  -- Undecided after NPI's reports were asked enough, or an answer only an operator can settle.
  needs_operator boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX npi_transfers_due ON npi_transfers (environment, next_at) WHERE status IN ('unsent', 'sent');
CREATE INDEX npi_transfers_batch ON npi_transfers (batch_id);
`;
