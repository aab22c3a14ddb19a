export default /* sql */ `
-- Settlements: money leaves the ledger to merchants' bank accounts.
-- A payout moves the merchant's money to the environment's clearing account when requested, from
-- there to the bank (an account outside Bhuktani, so its balance is what has left) when paid, and
-- back to the merchant when it fails.
ALTER TABLE ledger_accounts DROP CONSTRAINT ledger_accounts_kind_check;
ALTER TABLE ledger_accounts ADD CONSTRAINT ledger_accounts_kind_check
  CHECK (kind IN ('wallet', 'merchant', 'fee', 'funding', 'clearing', 'bank'));
ALTER TABLE journals DROP CONSTRAINT journals_kind_check;
ALTER TABLE journals ADD CONSTRAINT journals_kind_check
  CHECK (kind IN ('payment', 'refund', 'topup', 'payout', 'payout_paid', 'payout_failed'));

-- One row per merchant and environment that ever debited its balance. Debits (payouts and refunds)
-- lock it, so two of them never both spend the same money; payments (credits) never touch it, so a
-- popular merchant's completions do not queue behind each other.
CREATE TABLE settlement_accounts (
  merchant_id bigint NOT NULL REFERENCES merchants (id),
  environment text NOT NULL CHECK (environment IN ('test', 'live')),
  created_at timestamptz NOT NULL,
  PRIMARY KEY (merchant_id, environment)
);

CREATE TABLE payouts (
  id bigserial PRIMARY KEY,
  idx text NOT NULL UNIQUE,
  merchant_id bigint NOT NULL REFERENCES merchants (id),
  environment text NOT NULL CHECK (environment IN ('test', 'live')),
  amount bigint NOT NULL CHECK (amount > 0),
  state text NOT NULL CHECK (state IN ('Requested', 'Processing', 'Paid', 'Failed')),
  -- The merchant's bank account when the payout was requested: a later change does not redirect it.
  -- Test payouts of a merchant without one go to the sandbox bank and keep these null.
  bank_name text,
  branch text,
  account_name text,
  account_number text,
  bank_reference text,
  failure_reason text,
  -- The available balance when requested: the statement shows what was brought forward and what
  -- stays behind, so its lines add up to the payout.
  available_before bigint NOT NULL,
  -- Who asked: 'api', 'schedule', or a dashboard user's e-mail.
  requested_by text NOT NULL,
  requested_at timestamptz NOT NULL,
  processing_at timestamptz,
  paid_at timestamptz,
  failed_at timestamptz,
  updated_at timestamptz NOT NULL,
  CHECK ((state = 'Paid') = (paid_at IS NOT NULL AND bank_reference IS NOT NULL)),
  CHECK ((state = 'Failed') = (failed_at IS NOT NULL AND failure_reason IS NOT NULL))
);
CREATE INDEX payouts_merchant ON payouts (merchant_id, environment, id DESC);
CREATE INDEX payouts_open ON payouts (environment, state, id) WHERE state IN ('Requested', 'Processing');

-- The transaction records (payments with their fees, refunds) each payout settles. A record is
-- settled by at most one payout at a time; a failed payout releases its records (they stay listed
-- on its statement) for the next one.
CREATE TABLE payout_records (
  payout_id bigint NOT NULL REFERENCES payouts (id),
  record_id bigint NOT NULL REFERENCES transactions (id),
  released boolean NOT NULL DEFAULT false,
  PRIMARY KEY (payout_id, record_id)
);
CREATE UNIQUE INDEX payout_records_settled_once ON payout_records (record_id) WHERE NOT released;

-- Which payout a payout journal moves (request, paid, failed).
ALTER TABLE journals ADD COLUMN payout_id bigint REFERENCES payouts (id);
CREATE UNIQUE INDEX journals_one_per_payout_move ON journals (payout_id, kind) WHERE payout_id IS NOT NULL;
`;
