// Migration 017 on a store that already has operators with recovery codes and open merchant
// sessions: the codes move to recovery_codes unchanged (used ones stay used), the sessions stay open
// at the stage 'signed_in', and every merchant leaves two-factor up to each user.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDb } from '../../../test/test-app.js';
import type { Db } from '../db.js';
import { migrations } from './index.js';

describe('migration 017_merchant_account_safety', () => {
  let db: Db;
  beforeAll(async () => {
    db = await openTestDb();
  });
  afterAll(() => db.close());

  it('moves operators’ recovery codes and keeps open sessions', async () => {
    const rolledBack = new Error('roll back');
    const seen = await db
      .transaction(async (tx) => {
        // A schema of its own, so the shared test store is not touched; the whole run is rolled back.
        await tx.exec('CREATE SCHEMA upgrade_017; SET LOCAL search_path TO upgrade_017');
        const at = migrations.findIndex((m) => m.name === '017_merchant_account_safety');
        for (const migration of migrations.slice(0, at)) await migration.run(tx);
        await tx.query("INSERT INTO operators (email, role, password_hash, totp_secret_sealed, created_at) VALUES ('ops@example.com', 'admin', 'h', 's', now())");
        await tx.query("INSERT INTO operator_recovery_codes (operator_id, code_hash, used_at) SELECT id, 'code-a', NULL::timestamptz FROM operators UNION ALL SELECT id, 'code-b', '2026-01-01T00:00:00Z'::timestamptz FROM operators");
        await tx.query(
          "INSERT INTO merchants (idx, name, email, mobile, fee_bps, status, status_changed_at, created_at) VALUES ('m1', 'One', 'one@example.com', '', 300, 'approved', now(), now())",
        );
        await tx.query("INSERT INTO merchant_users (merchant_id, email, role, password_hash, email_verified_at, created_at) SELECT id, email, 'owner', 'h', now(), now() FROM merchants");
        await tx.query(
          "INSERT INTO merchant_sessions (token_hash, merchant_id, user_id, created_at, expires_at) SELECT 'session-1', merchant_id, id, '2026-01-01T00:00:00Z', now() + interval '1 hour' FROM merchant_users",
        );
        await migrations[at].run(tx);
        const codes = await tx.query('SELECT account_kind, code_hash, used_at IS NOT NULL AS used FROM recovery_codes ORDER BY code_hash');
        const sessions = await tx.query("SELECT token_hash, stage, last_seen_at = created_at AS seen_at_start, ip, user_agent FROM merchant_sessions");
        const merchants = await tx.query('SELECT idx, require_two_factor FROM merchants');
        const [{ old }] = await tx.query<{ old: string | null }>("SELECT to_regclass('operator_recovery_codes')::text AS old");
        throw Object.assign(rolledBack, { seen: { codes, sessions, merchants, old } });
      })
      .catch((error: unknown) => {
        if (error !== rolledBack) throw error;
        return (error as Error & { seen: unknown }).seen;
      });
    expect(seen).toEqual({
      codes: [
        { account_kind: 'operator', code_hash: 'code-a', used: false },
        { account_kind: 'operator', code_hash: 'code-b', used: true },
      ],
      sessions: [{ token_hash: 'session-1', stage: 'signed_in', seen_at_start: true, ip: '', user_agent: '' }],
      merchants: [{ idx: 'm1', require_two_factor: false }],
      old: null,
    });
  });
});
