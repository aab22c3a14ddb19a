export default /* sql */ `
-- An invitation lives only while whoever sent it may invite: removing someone, or giving
-- them a role that may not invite, now revokes their open invitations in the same transaction. Those
-- left open before this release by someone already removed or demoted are revoked here, each with its
-- line: in the team's log (by "Bhuktani") for a merchant's, in the audit log (by cli) for the console's.
WITH revoked AS (
  UPDATE merchant_invitations i SET revoked_at = now()
    FROM merchant_users u
   WHERE u.id = i.invited_by AND i.accepted_at IS NULL AND i.revoked_at IS NULL
     AND (u.removed_at IS NOT NULL OR u.role NOT IN ('owner', 'admin'))
  RETURNING i.id, i.merchant_id, i.email, i.role, u.email AS sender,
            CASE WHEN u.removed_at IS NOT NULL THEN 'was removed' ELSE 'is ' || u.role || ' now and may not invite' END AS who
)
INSERT INTO merchant_team_events (merchant_id, occurred_at, actor_user_id, actor_email, action, subject_email, detail)
SELECT merchant_id, now(), NULL, 'Bhuktani', 'invite_revoke', email, role || ', sent by ' || sender || ', who ' || who
  FROM revoked ORDER BY id;

WITH revoked AS (
  UPDATE operator_invitations i SET revoked_at = now()
    FROM operators o
   WHERE o.id = i.invited_by AND i.accepted_at IS NULL AND i.revoked_at IS NULL
     AND (o.removed_at IS NOT NULL OR o.role <> 'admin')
  RETURNING i.id, i.email, i.role, o.email AS sender,
            CASE WHEN o.removed_at IS NOT NULL THEN 'was removed' ELSE 'is ' || o.role || ' now and may not invite' END AS who
)
INSERT INTO audit_log (occurred_at, actor_kind, actor_id, actor_label, action, object_type, object_id, reason, before)
SELECT now(), 'cli', NULL, 'cli', 'operator.invite_revoke', 'operator', 'invitation:' || id, 'sent by ' || sender || ', who ' || who,
       jsonb_build_object('email', email, 'role', role)
  FROM revoked ORDER BY id;

-- Whose invitations are still open, found when they leave.
CREATE INDEX merchant_invitations_sender ON merchant_invitations (invited_by) WHERE accepted_at IS NULL AND revoked_at IS NULL;
CREATE INDEX operator_invitations_sender ON operator_invitations (invited_by) WHERE accepted_at IS NULL AND revoked_at IS NULL;
`;
