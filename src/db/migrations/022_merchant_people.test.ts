// Migration 022 on a store that already has merchants, team users (one removed and invited again
// elsewhere, one with two-factor and recovery codes), e-mailed links and open sessions: every e-mail
// becomes one person with the present user's password and two-factor, each user row a membership of
// that person, open sessions stay open as their person's, and a removed row's codes and links go.
import { describe, expect, it } from 'vitest';
import { afterUpgrade } from '../../../test/migration-upgrade.js';

describe('migration 022_merchant_people', () => {
  it('makes one person per e-mail, keeps every user as a membership, and keeps open sessions', async () => {
    const seen = await afterUpgrade('022_merchant_people', {
      async before(tx) {
        await tx.query(
          `INSERT INTO merchants (idx, name, email, mobile, fee_bps, status, status_changed_at, created_at)
           VALUES ('m1', 'One', 'one@example.com', '', 300, 'approved', now(), now()), ('m2', 'Two', 'two@example.com', '', 300, 'new', now(), now())`,
        );
        const user = (merchant: string, email: string, role: string, hash: string, extra = '') =>
          tx.query(
            `INSERT INTO merchant_users (merchant_id, email, role, password_hash, email_verified_at, totp_secret_sealed, totp_enrolled_at, totp_last_step, created_at, removed_at)
             SELECT id, $2, $3, $4, now(), ${extra ? "'sealed-secret', now(), 7" : 'NULL, NULL, 0'}, now(), ${extra === 'removed' ? 'now()' : 'NULL'} FROM merchants WHERE idx = $1 RETURNING id`,
            [merchant, email, role, hash],
          );
        const [one] = await user('m1', 'One@Example.com', 'owner', 'hash-one', 'two-factor');
        await user('m2', 'two@example.com', 'owner', 'hash-two');
        // Removed from One with two-factor, then invited to Two with a password of its own.
        const [gone] = await user('m1', 'Moved@example.com', 'viewer', 'hash-old', 'removed');
        const [moved] = await user('m2', 'moved@example.com', 'finance', 'hash-new');
        const codes = [
          [one.id, 'code-one'],
          [gone.id, 'code-gone'],
        ];
        for (const [id, code] of codes) await tx.query("INSERT INTO recovery_codes (account_kind, account_id, code_hash) VALUES ('merchant_user', $1, $2)", [id, code]);
        await tx.query("INSERT INTO recovery_codes (account_kind, account_id, code_hash) VALUES ('operator', 1, 'code-operator')");
        for (const [id, token] of [
          [moved.id, 'link-moved'],
          [gone.id, 'link-gone'],
        ]) {
          await tx.query("INSERT INTO merchant_user_links (token_hash, user_id, purpose, created_at, expires_at) VALUES ($2, $1, 'reset_password', now(), now() + interval '1 hour')", [id, token]);
        }
        await tx.query(
          `INSERT INTO merchant_sessions (token_hash, merchant_id, user_id, created_at, expires_at, last_seen_at)
           SELECT 'session-' || id, merchant_id, id, now(), now() + interval '1 hour', now() FROM merchant_users WHERE removed_at IS NULL`,
        );
      },
      async after(tx) {

        const people = await tx.query('SELECT email, password_hash, totp_secret_sealed, totp_last_step::int AS step, email_verified_at IS NOT NULL AS verified FROM merchant_people ORDER BY lower(email)');
        const users = await tx.query(
          'SELECT m.idx, p.email, u.role, u.removed_at IS NOT NULL AS removed FROM merchant_users u JOIN merchant_people p ON p.id = u.person_id JOIN merchants m ON m.id = u.merchant_id ORDER BY u.id',
        );
        const recovery = await tx.query(
          `SELECT r.account_kind, r.code_hash, p.email FROM recovery_codes r LEFT JOIN merchant_people p ON r.account_kind = 'merchant_person' AND p.id = r.account_id ORDER BY r.code_hash`,
        );
        const links = await tx.query('SELECT l.token_hash, p.email FROM merchant_user_links l JOIN merchant_people p ON p.id = l.person_id ORDER BY l.token_hash');
        const sessions = await tx.query(
          'SELECT s.token_hash, m.idx, p.email FROM merchant_sessions s JOIN merchant_users u ON u.id = s.user_id AND u.person_id = s.person_id JOIN merchant_people p ON p.id = s.person_id JOIN merchants m ON m.id = s.merchant_id ORDER BY s.token_hash',
        );
        const signUps = await tx.query('SELECT count(*)::int AS n FROM merchant_sign_ups');
        return { people, users, recovery, links, sessions, signUps };
      },
    });
    expect(seen).toEqual({
      people: [
        { email: 'moved@example.com', password_hash: 'hash-new', totp_secret_sealed: null, step: 0, verified: true },
        { email: 'One@Example.com', password_hash: 'hash-one', totp_secret_sealed: 'sealed-secret', step: 7, verified: true },
        { email: 'two@example.com', password_hash: 'hash-two', totp_secret_sealed: null, step: 0, verified: true },
      ],
      users: [
        { idx: 'm1', email: 'One@Example.com', role: 'owner', removed: false },
        { idx: 'm2', email: 'two@example.com', role: 'owner', removed: false },
        { idx: 'm1', email: 'moved@example.com', role: 'viewer', removed: true },
        { idx: 'm2', email: 'moved@example.com', role: 'finance', removed: false },
      ],
      // The removed row's recovery code would have opened the present person's account: gone.
      recovery: [
        { account_kind: 'merchant_person', code_hash: 'code-one', email: 'One@Example.com' },
        { account_kind: 'operator', code_hash: 'code-operator', email: null },
      ],
      links: [{ token_hash: 'link-moved', email: 'moved@example.com' }],
      sessions: [
        expect.objectContaining({ idx: 'm1', email: 'One@Example.com' }),
        expect.objectContaining({ idx: 'm2', email: 'two@example.com' }),
        expect.objectContaining({ idx: 'm2', email: 'moved@example.com' }),
      ],
      signUps: [{ n: 0 }],
    });
  });
});
