export default /* sql */ `
-- Payment providers: the hosted page lets the payer pay through an
-- upstream provider (Khalti, eSewa, connectIPS) as well as with a Bhuktani wallet.

-- What the operator set up, per provider and environment. Credentials are sealed (AES-256-GCM,
-- src/secrets/seal.ts); settings holds the rest (addresses, ids), shown on the console.
CREATE TABLE providers (
  name text NOT NULL CHECK (name IN ('khalti', 'esewa', 'connectips')),
  environment text NOT NULL CHECK (environment IN ('test', 'live')),
  enabled boolean NOT NULL,
  settings jsonb NOT NULL,
  credentials_sealed text NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (name, environment)
);

-- Health across instances: failures in a row (a provider that fails PROVIDER_FAILURE_LIMIT times in a
-- row is left off the hosted page until cooldown_until), and every call's count and time.
CREATE TABLE provider_health (
  name text NOT NULL,
  environment text NOT NULL CHECK (environment IN ('test', 'live')),
  failures_in_a_row integer NOT NULL DEFAULT 0,
  cooldown_until timestamptz,
  calls bigint NOT NULL DEFAULT 0,
  failed_calls bigint NOT NULL DEFAULT 0,
  call_ms bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (name, environment)
);

-- One payer's try at a payment through a provider (src/providers/attempt-state-machine.ts). idx is
-- the reference the provider is given (Khalti's purchase_order_id, eSewa's transaction_uuid,
-- connectIPS's TXNID). transaction_id is the payment's, once this attempt holds or completed it.
CREATE TABLE provider_attempts (
  id bigserial PRIMARY KEY,
  idx text NOT NULL UNIQUE,
  pidx text NOT NULL REFERENCES payments (pidx),
  environment text NOT NULL CHECK (environment IN ('test', 'live')),
  provider text NOT NULL CHECK (provider IN ('khalti', 'esewa', 'connectips')),
  amount bigint NOT NULL CHECK (amount > 0),
  state text NOT NULL CHECK (state IN ('Started', 'Unknown', 'Paid', 'Surplus', 'Failed', 'Escalated')),
  -- The provider's own id of the attempt (Khalti's pidx), and of the money once paid.
  provider_reference text,
  provider_transaction_id text,
  -- What the provider keeps of the amount, as it said when it confirmed (Khalti's lookup fee).
  provider_fee bigint NOT NULL DEFAULT 0 CHECK (provider_fee >= 0),
  transaction_id text UNIQUE,
  -- The reconciliation job: how often it asked, when it asks next, which instance holds it until when.
  checks integer NOT NULL DEFAULT 0,
  next_check_at timestamptz,
  lease_until timestamptz,
  last_answer text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
-- A payment completes from at most one attempt.
CREATE UNIQUE INDEX provider_attempts_one_paid ON provider_attempts (pidx) WHERE state = 'Paid';
CREATE INDEX provider_attempts_pidx ON provider_attempts (pidx);
CREATE INDEX provider_attempts_due ON provider_attempts (next_check_at) WHERE state IN ('Started', 'Unknown');
CREATE INDEX provider_attempts_escalated ON provider_attempts (environment, id) WHERE state = 'Escalated';

-- Money to give back to a payer at a provider: a merchant's refund of a provider payment, or a
-- second success (a payment already complete when another attempt was paid). Refunded through the
-- provider's refund API where it has one, otherwise by an operator at the provider, then marked.
CREATE TABLE provider_refunds (
  id bigserial PRIMARY KEY,
  idx text NOT NULL UNIQUE,
  attempt_id bigint NOT NULL REFERENCES provider_attempts (id),
  environment text NOT NULL CHECK (environment IN ('test', 'live')),
  provider text NOT NULL,
  amount bigint NOT NULL CHECK (amount > 0),
  reason text NOT NULL CHECK (reason IN ('refund', 'surplus')),
  -- The merchant's Refund record, for reason 'refund'.
  refund_record_id bigint REFERENCES transactions (id),
  state text NOT NULL CHECK (state IN ('Queued', 'Refunded')),
  tries integer NOT NULL DEFAULT 0,
  next_try_at timestamptz,
  lease_until timestamptz,
  last_answer text,
  refunded_by text,
  provider_reference text,
  created_at timestamptz NOT NULL,
  refunded_at timestamptz,
  CHECK ((state = 'Refunded') = (refunded_at IS NOT NULL))
);
CREATE INDEX provider_refunds_queued ON provider_refunds (environment, id) WHERE state = 'Queued';
CREATE INDEX provider_refunds_attempt ON provider_refunds (attempt_id);

-- Each run of bhuktani provider reconcile: a provider's settlement report matched against the ledger.
CREATE TABLE provider_reconciliations (
  id bigserial PRIMARY KEY,
  name text NOT NULL,
  environment text NOT NULL CHECK (environment IN ('test', 'live')),
  file_name text NOT NULL,
  rows integer NOT NULL,
  matched integer NOT NULL,
  differences jsonb NOT NULL,
  actor_label text NOT NULL,
  reconciled_at timestamptz NOT NULL
);
CREATE INDEX provider_reconciliations_newest ON provider_reconciliations (name, environment, id DESC);

-- The providers' sandboxes: the simulators' own payments (src/providers/*/…-simulator.ts).
CREATE TABLE provider_simulations (
  provider text NOT NULL,
  reference text NOT NULL,
  amount bigint NOT NULL,
  details jsonb NOT NULL,
  outcome text NOT NULL CHECK (outcome IN ('open', 'paid', 'canceled', 'pending_then_paid', 'never_answers')),
  status_checks integer NOT NULL DEFAULT 0,
  refunded bigint NOT NULL DEFAULT 0,
  transaction_id text,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (provider, reference)
);

-- Money: what each provider collected for the operator (receivable), what it kept (provider_fee),
-- what is owed back to payers through it (refund_due). owner_id is the provider's number
-- (src/providers/provider-names.ts).
ALTER TABLE ledger_accounts DROP CONSTRAINT ledger_accounts_kind_check;
ALTER TABLE ledger_accounts ADD CONSTRAINT ledger_accounts_kind_check
  CHECK (kind IN ('wallet', 'merchant', 'fee', 'funding', 'clearing', 'bank', 'receivable', 'provider_fee', 'refund_due'));
ALTER TABLE journals DROP CONSTRAINT journals_kind_check;
ALTER TABLE journals ADD CONSTRAINT journals_kind_check
  CHECK (kind IN ('payment', 'refund', 'topup', 'payout', 'payout_paid', 'payout_failed', 'sandbox_cover', 'provider_surplus', 'provider_refund')) NOT VALID;
-- The provider refund a surplus or provider_refund journal belongs to; ledger verify proves it.
ALTER TABLE journals ADD COLUMN provider_refund_id bigint;
ALTER TABLE journals ADD CONSTRAINT journals_provider_refund
  CHECK ((kind IN ('provider_surplus', 'provider_refund')) = (provider_refund_id IS NOT NULL)) NOT VALID;
CREATE UNIQUE INDEX journals_one_per_provider_refund ON journals (provider_refund_id, kind) WHERE provider_refund_id IS NOT NULL;

-- The transaction list names how the payer paid.
ALTER TABLE transactions DROP CONSTRAINT transactions_type_check;
ALTER TABLE transactions ADD CONSTRAINT transactions_type_check
  CHECK (type IN ('Wallet payment', 'Khalti payment', 'eSewa payment', 'connectIPS payment', 'Refund')) NOT VALID;
`;
