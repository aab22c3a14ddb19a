export default /* sql */ `
-- Account safety for merchant users: two-factor at log-in, step-up, e-mail verification,
-- password reset, the list of one's sessions.

-- A merchant session first proves the password ('second_factor', or 'enrolment' when the team
-- requires two-factor of a user without it) and only 'signed_in' opens pages, as operators'
-- sessions do. last_seen_at, ip and user_agent are what the sessions page shows; confirmed_at is the
-- last time the user proved who they are (log-in, a code, their password), which step-up reads.
ALTER TABLE merchant_sessions
  ADD COLUMN stage text NOT NULL DEFAULT 'signed_in' CHECK (stage IN ('second_factor', 'enrolment', 'signed_in')),
  ADD COLUMN last_seen_at timestamptz,
  ADD COLUMN ip text NOT NULL DEFAULT '',
  ADD COLUMN user_agent text NOT NULL DEFAULT '',
  ADD COLUMN confirmed_at timestamptz;
UPDATE merchant_sessions SET last_seen_at = created_at;
ALTER TABLE merchant_sessions ALTER COLUMN last_seen_at SET NOT NULL;

-- The owner can require two-factor of the whole team.
ALTER TABLE merchants ADD COLUMN require_two_factor boolean NOT NULL DEFAULT false;

-- Recovery codes of any kind of account (operators' move here from operator_recovery_codes):
-- ten single-use codes each, only their SHA-256 kept.
CREATE TABLE recovery_codes (
  account_kind text NOT NULL CHECK (account_kind IN ('operator', 'merchant_user')),
  account_id bigint NOT NULL,
  code_hash text NOT NULL,
  used_at timestamptz,
  PRIMARY KEY (account_kind, account_id, code_hash)
);
INSERT INTO recovery_codes (account_kind, account_id, code_hash, used_at)
SELECT 'operator', operator_id, code_hash, used_at FROM operator_recovery_codes;
DROP TABLE operator_recovery_codes;

-- Single-use links sent by e-mail to a merchant user: verify the e-mail (24 hours), reset the
-- password (1 hour). Only the token's SHA-256 is kept; a new link of a purpose kills the older ones.
CREATE TABLE merchant_user_links (
  token_hash text PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES merchant_users (id),
  purpose text NOT NULL CHECK (purpose IN ('verify_email', 'reset_password')),
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX merchant_user_links_user ON merchant_user_links (user_id, purpose);
`;
