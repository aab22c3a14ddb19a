export default /* sql */ `
CREATE TABLE wallets (
  id bigserial PRIMARY KEY,
  idx text NOT NULL UNIQUE,
  environment text NOT NULL CHECK (environment IN ('test', 'live')),
  mobile text NOT NULL,
  name text NOT NULL,
  -- Sandbox wallets share the published MPIN and OTP; they have no hash.
  mpin_hash text,
  sandbox boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL,
  UNIQUE (environment, mobile)
);

-- Wrong MPINs per wallet (scope '') or, for sandbox wallets, per payment (scope = pidx), so nobody
-- can lock the shared test wallets for others.
CREATE TABLE mpin_failures (
  wallet_id bigint NOT NULL REFERENCES wallets (id),
  scope text NOT NULL,
  failures integer NOT NULL DEFAULT 0,
  locked_until timestamptz,
  PRIMARY KEY (wallet_id, scope)
);

-- One payer's try at a payment: MPIN accepted, OTP sent, waiting for the OTP.
CREATE TABLE payment_attempts (
  token text PRIMARY KEY,
  pidx text NOT NULL REFERENCES payments (pidx),
  wallet_id bigint NOT NULL REFERENCES wallets (id),
  otp_hash text NOT NULL,
  otp_expires_at timestamptz NOT NULL,
  otp_failures integer NOT NULL DEFAULT 0,
  ended boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL
);
CREATE INDEX payment_attempts_pidx ON payment_attempts (pidx);

-- The double-entry ledger. owner_id is the wallet or merchant id, 0 for the service's own accounts.
CREATE TABLE ledger_accounts (
  id bigserial PRIMARY KEY,
  environment text NOT NULL CHECK (environment IN ('test', 'live')),
  kind text NOT NULL CHECK (kind IN ('wallet', 'merchant', 'fee', 'funding')),
  owner_id bigint NOT NULL,
  -- Only wallets keep a running balance: its conditional update is what keeps a wallet from going
  -- negative under concurrent payments. Merchant, fee and funding balances are derived from the
  -- postings, so a popular merchant is not one hot row.
  balance bigint CHECK (balance >= 0),
  CHECK ((kind = 'wallet') = (balance IS NOT NULL)),
  UNIQUE (environment, kind, owner_id)
);

CREATE TABLE journals (
  id bigserial PRIMARY KEY,
  environment text NOT NULL CHECK (environment IN ('test', 'live')),
  kind text NOT NULL CHECK (kind IN ('payment', 'refund', 'topup')),
  pidx text REFERENCES payments (pidx),
  created_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX journals_one_payment ON journals (pidx) WHERE kind = 'payment';
CREATE INDEX journals_pidx ON journals (pidx);

-- Positive: money into the account; negative: out of it. Every journal's postings sum to zero.
CREATE TABLE postings (
  id bigserial PRIMARY KEY,
  journal_id bigint NOT NULL REFERENCES journals (id),
  account_id bigint NOT NULL REFERENCES ledger_accounts (id),
  amount bigint NOT NULL CHECK (amount <> 0)
);
CREATE INDEX postings_journal ON postings (journal_id);
CREATE INDEX postings_account ON postings (account_id);
`;
