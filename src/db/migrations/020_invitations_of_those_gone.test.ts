// Migration 020 on a store with invitations left open by people already gone: those of a removed or
// demoted merchant admin, and of a removed or demoted operator, are revoked, each with its line (the
// team's log, the audit log); those of an owner, an admin and an admin operator stay open.
import { describe, expect, it } from 'vitest';
import { afterUpgrade } from '../../../test/migration-upgrade.js';

describe('migration 020_invitations_of_those_gone', () => {
  it('revokes the open invitations of whoever was removed or may no longer invite, each recorded', async () => {
    const seen = await afterUpgrade('020_invitations_of_those_gone', {
      async before(tx) {
        await tx.query("INSERT INTO merchants (idx, name, email, mobile, fee_bps, status, status_changed_at, created_at) VALUES ('m1', 'One', 'one@example.com', '', 300, 'approved', now(), now())");
        await tx.query(`INSERT INTO merchant_users (merchant_id, email, role, password_hash, email_verified_at, created_at, removed_at)
          SELECT m.id, u.email, u.role, 'h', now(), now(), u.removed_at FROM merchants m,
            (VALUES ('owner@example.com', 'owner', NULL::timestamptz), ('admin@example.com', 'admin', NULL), ('gone@example.com', 'admin', now()), ('dev@example.com', 'developer', NULL)) AS u (email, role, removed_at)`);
        await tx.query(`INSERT INTO merchant_invitations (merchant_id, email, role, token_hash, invited_by, created_at, expires_at, accepted_at)
          SELECT u.merchant_id, 'to-' || u.email, 'viewer', 'hash-' || u.email, u.id, now(), now() + interval '7 days', NULL FROM merchant_users u
          UNION ALL SELECT u.merchant_id, 'accepted-' || u.email, 'viewer', 'hash-accepted-' || u.email, u.id, now(), now() + interval '7 days', now() FROM merchant_users u WHERE u.email = 'gone@example.com'`);
        await tx.query(`INSERT INTO operators (email, role, password_hash, totp_secret_sealed, created_at, removed_at)
          VALUES ('ops@example.com', 'admin', 'h', 's', now(), NULL), ('left@example.com', 'admin', 'h', 's', now(), now()), ('support@example.com', 'support', 'h', 's', now(), NULL)`);
        await tx.query(`INSERT INTO operator_invitations (email, role, token_hash, invited_by, created_at, expires_at)
          SELECT 'to-' || email, 'finance', 'hash-' || email, id, now(), now() + interval '7 days' FROM operators`);
      },
      async after(tx) {
        const merchantNotRevoked = await tx.query('SELECT email FROM merchant_invitations WHERE revoked_at IS NULL ORDER BY email');
        const teamLog = await tx.query('SELECT actor_user_id, actor_email, action, subject_email, detail FROM merchant_team_events ORDER BY subject_email');
        const operatorNotRevoked = await tx.query('SELECT email FROM operator_invitations WHERE revoked_at IS NULL ORDER BY email');
        const audit = await tx.query("SELECT actor_kind, actor_label, action, object_type, reason, before FROM audit_log WHERE action = 'operator.invite_revoke' ORDER BY reason");
        return { merchantNotRevoked, teamLog, operatorNotRevoked, audit };
      },
    });
    expect(seen).toEqual({
      merchantNotRevoked: [{ email: 'accepted-gone@example.com' }, { email: 'to-admin@example.com' }, { email: 'to-owner@example.com' }],
      teamLog: [
        { actor_user_id: null, actor_email: 'Bhuktani', action: 'invite_revoke', subject_email: 'to-dev@example.com', detail: 'viewer, sent by dev@example.com, who is developer now and may not invite' },
        { actor_user_id: null, actor_email: 'Bhuktani', action: 'invite_revoke', subject_email: 'to-gone@example.com', detail: 'viewer, sent by gone@example.com, who was removed' },
      ],
      operatorNotRevoked: [{ email: 'to-ops@example.com' }],
      audit: [
        { actor_kind: 'cli', actor_label: 'cli', action: 'operator.invite_revoke', object_type: 'operator', reason: 'sent by left@example.com, who was removed', before: { email: 'to-left@example.com', role: 'finance' } },
        { actor_kind: 'cli', actor_label: 'cli', action: 'operator.invite_revoke', object_type: 'operator', reason: 'sent by support@example.com, who is support now and may not invite', before: { email: 'to-support@example.com', role: 'finance' } },
      ],
    });
  });
});
