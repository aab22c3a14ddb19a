export default /* sql */ `
-- The people who run the gateway. Not merchants: their own accounts, roles and
-- two factors. An operator is removed, never deleted, so the audit log's actor ids keep meaning.
CREATE TABLE operators (
  id bigserial PRIMARY KEY,
  email text NOT NULL,
  role text NOT NULL CHECK (role IN ('admin', 'support', 'finance')),
  password_hash text NOT NULL,
  -- The TOTP secret sealed with AES-256-GCM under a server secret (src/people/totp-seal.ts): a copy
  -- of this table alone (a partial dump, a report query) does not give anyone the codes.
  totp_secret_sealed text NOT NULL,
  -- Null until the operator has confirmed one code from their app (an invited operator mid-enrolment).
  totp_enrolled_at timestamptz,
  -- The time step of the last code accepted: a code, or an older one, is never accepted twice.
  totp_last_step bigint NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL,
  removed_at timestamptz
);
-- One e-mail, one operator at a time, whatever its case; a removed operator's e-mail may come back.
CREATE UNIQUE INDEX operators_email ON operators (lower(email)) WHERE removed_at IS NULL;

-- Ten single-use codes per operator for a lost phone; only their SHA-256 is kept.
CREATE TABLE operator_recovery_codes (
  operator_id bigint NOT NULL REFERENCES operators (id),
  code_hash text NOT NULL,
  used_at timestamptz,
  PRIMARY KEY (operator_id, code_hash)
);

-- Sessions of people who sign in (operators today; merchant users later). The browser
-- holds a random token; only its SHA-256 is kept. A session first proves the password
-- ('second_factor' or, for a new operator, 'enrolment') and only 'signed_in' opens pages.
CREATE TABLE people_sessions (
  token_hash text PRIMARY KEY,
  account_kind text NOT NULL CHECK (account_kind IN ('operator')),
  account_id bigint NOT NULL,
  stage text NOT NULL CHECK (stage IN ('second_factor', 'enrolment', 'signed_in')),
  created_at timestamptz NOT NULL,
  last_seen_at timestamptz NOT NULL,
  -- The absolute end; the idle end is last_seen_at plus the kind's idle time.
  expires_at timestamptz NOT NULL
);
CREATE INDEX people_sessions_account ON people_sessions (account_kind, account_id);

-- An admin's invitation: a single-use link (only the token's SHA-256 kept) valid for 7 days.
CREATE TABLE operator_invitations (
  id bigserial PRIMARY KEY,
  email text NOT NULL,
  role text NOT NULL CHECK (role IN ('admin', 'support', 'finance')),
  token_hash text NOT NULL UNIQUE,
  invited_by bigint REFERENCES operators (id),
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  accepted_at timestamptz,
  revoked_at timestamptz
);
CREATE INDEX operator_invitations_open ON operator_invitations (lower(email)) WHERE accepted_at IS NULL AND revoked_at IS NULL;

-- Each run of the ledger check from the console or the CLI: the overview shows the last one.
CREATE TABLE ledger_verifications (
  id bigserial PRIMARY KEY,
  verified_at timestamptz NOT NULL,
  actor_label text NOT NULL,
  operator_id bigint REFERENCES operators (id),
  passed boolean NOT NULL,
  -- The invariants that did not hold, with their first offending rows ([] when passed).
  broken jsonb NOT NULL
);

-- A frozen wallet cannot pay (the console's freeze).
ALTER TABLE wallets ADD COLUMN frozen_at timestamptz, ADD COLUMN frozen_reason text;
`;
