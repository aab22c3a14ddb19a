export default /* sql */ `
-- Merchant website sessions. Only a SHA-256 of the cookie's token is stored, so a copy of the
-- database cannot be used to log in. The environment the merchant is looking at lives here too.
CREATE TABLE merchant_sessions (
  token_hash text PRIMARY KEY,
  merchant_id bigint NOT NULL REFERENCES merchants (id),
  environment text NOT NULL DEFAULT 'test' CHECK (environment IN ('test', 'live')),
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX merchant_sessions_merchant ON merchant_sessions (merchant_id);
CREATE INDEX merchant_sessions_expires ON merchant_sessions (expires_at);

-- Failed log-ins per scope ('email:<lower-case email>' or 'ip:<address>'), kept in the database so
-- the slow-down holds across instances.
CREATE TABLE login_failures (
  scope text PRIMARY KEY,
  failures integer NOT NULL CHECK (failures > 0),
  last_failed_at timestamptz NOT NULL,
  locked_until timestamptz
);
`;
