export default /* sql */ `
-- The people of a merchant's team. The single log-in a merchant had
-- becomes its owner; the merchant's own e-mail stays its business contact. One e-mail, one user at a
-- time across all merchants, whatever its case (log-in is by e-mail alone); a removed user's e-mail
-- may come back. A user is removed, never deleted, so the audit log's actor ids keep meaning.
CREATE TABLE merchant_users (
  id bigserial PRIMARY KEY,
  merchant_id bigint NOT NULL REFERENCES merchants (id),
  email text NOT NULL,
  role text NOT NULL CHECK (role IN ('owner', 'admin', 'developer', 'finance', 'viewer')),
  password_hash text NOT NULL,
  -- Null until the user follows the link of the verification e-mail (an invitee proves it by
  -- following the invitation). Existing log-ins count as verified.
  email_verified_at timestamptz,
  -- TOTP, as for operators (src/people/totp-seal.ts): sealed under a server secret, null until
  -- enrolled; the time step of the last accepted code, so no code is accepted twice.
  totp_secret_sealed text,
  totp_enrolled_at timestamptz,
  totp_last_step bigint NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL,
  removed_at timestamptz
);
CREATE UNIQUE INDEX merchant_users_email ON merchant_users (lower(email)) WHERE removed_at IS NULL;
-- Exactly one owner at a time: a hand-over demotes the old owner before it promotes the new one.
CREATE UNIQUE INDEX merchant_users_owner ON merchant_users (merchant_id) WHERE role = 'owner' AND removed_at IS NULL;
CREATE INDEX merchant_users_merchant ON merchant_users (merchant_id);

INSERT INTO merchant_users (merchant_id, email, role, password_hash, email_verified_at, created_at)
SELECT id, email, 'owner', password_hash, created_at, created_at FROM merchants ORDER BY id;

-- The password lives with the user now: no second copy that a password change would leave behind.
ALTER TABLE merchants ALTER COLUMN password_hash DROP NOT NULL;
UPDATE merchants SET password_hash = NULL;

-- A session is one user's (a removed user's sessions are deleted with them).
ALTER TABLE merchant_sessions ADD COLUMN user_id bigint REFERENCES merchant_users (id);
UPDATE merchant_sessions s SET user_id = u.id FROM merchant_users u WHERE u.merchant_id = s.merchant_id AND u.role = 'owner';
ALTER TABLE merchant_sessions ALTER COLUMN user_id SET NOT NULL;
CREATE INDEX merchant_sessions_user ON merchant_sessions (user_id);
`;
