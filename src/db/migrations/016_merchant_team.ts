export default /* sql */ `
-- A merchant's team: invitations by e-mail, and the team's own log of its changes.

-- An owner's or admin's invitation: a single-use link (only the token's SHA-256 kept) valid for
-- 7 days, like operator_invitations, for one merchant. Nobody is invited as owner: ownership is
-- handed over.
CREATE TABLE merchant_invitations (
  id bigserial PRIMARY KEY,
  merchant_id bigint NOT NULL REFERENCES merchants (id),
  email text NOT NULL,
  role text NOT NULL CHECK (role IN ('admin', 'developer', 'finance', 'viewer')),
  token_hash text NOT NULL UNIQUE,
  invited_by bigint REFERENCES merchant_users (id),
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  accepted_at timestamptz,
  revoked_at timestamptz
);
CREATE INDEX merchant_invitations_open ON merchant_invitations (merchant_id) WHERE accepted_at IS NULL AND revoked_at IS NULL;

-- What the team's users did to the team (invite, join, role change, removal, hand-over): the
-- merchant's own acts, shown on its team page. Operators' acts stay in audit_log.
CREATE TABLE merchant_team_events (
  id bigserial PRIMARY KEY,
  merchant_id bigint NOT NULL REFERENCES merchants (id),
  occurred_at timestamptz NOT NULL,
  actor_user_id bigint REFERENCES merchant_users (id),
  actor_email text NOT NULL,
  action text NOT NULL,
  subject_email text NOT NULL,
  detail text NOT NULL DEFAULT ''
);
CREATE INDEX merchant_team_events_merchant ON merchant_team_events (merchant_id, id);
`;
