// Migration 015 on a store that already has merchants and sessions: each merchant's log-in becomes its
// owner, with the same password, and a session open before the upgrade stays the owner's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDb } from '../../../test/test-app.js';
import type { Db } from '../db.js';
import { migrations } from './index.js';

describe('migration 015_merchant_users', () => {
  let db: Db;
  beforeAll(async () => {
    db = await openTestDb();
  });
  afterAll(() => db.close());

  it('makes every merchant log-in its owner and keeps open sessions', async () => {
    const rolledBack = new Error('roll back');
    const seen = await db
      .transaction(async (tx) => {
        // A schema of its own, so the shared test store is not touched; the whole run is rolled back.
        await tx.exec('CREATE SCHEMA upgrade_015; SET LOCAL search_path TO upgrade_015');
        const at = migrations.findIndex((m) => m.name === '015_merchant_users');
        for (const migration of migrations.slice(0, at)) await migration.run(tx);
        await tx.query(
          `INSERT INTO merchants (idx, name, email, mobile, password_hash, fee_bps, status, status_changed_at, created_at)
           VALUES ('m1', 'One', 'One@Example.com', '', 'hash-1', 300, 'approved', now(), now()), ('m2', 'Two', 'two@example.com', '', 'hash-2', 300, 'new', now(), now())`,
        );
        await tx.query(`INSERT INTO merchant_sessions (token_hash, merchant_id, created_at, expires_at) SELECT 'session-' || idx, id, now(), now() + interval '1 hour' FROM merchants`);
        await migrations[at].run(tx);
        const users = await tx.query('SELECT m.idx, u.email, u.role, u.password_hash, u.email_verified_at IS NOT NULL AS verified FROM merchant_users u JOIN merchants m ON m.id = u.merchant_id ORDER BY m.idx');
        const sessions = await tx.query('SELECT s.token_hash, u.email FROM merchant_sessions s JOIN merchant_users u ON u.id = s.user_id ORDER BY s.token_hash');
        const hashes = await tx.query('SELECT count(*)::int AS left FROM merchants WHERE password_hash IS NOT NULL');
        throw Object.assign(rolledBack, { seen: { users, sessions, hashes } });
      })
      .catch((error: unknown) => {
        if (error !== rolledBack) throw error;
        return (error as Error & { seen: unknown }).seen;
      });
    expect(seen).toEqual({
      users: [
        { idx: 'm1', email: 'One@Example.com', role: 'owner', password_hash: 'hash-1', verified: true },
        { idx: 'm2', email: 'two@example.com', role: 'owner', password_hash: 'hash-2', verified: true },
      ],
      sessions: [
        { token_hash: 'session-m1', email: 'One@Example.com' },
        { token_hash: 'session-m2', email: 'two@example.com' },
      ],
      hashes: [{ left: 0 }],
    });
  });
});
