// Migration 021 on a store with merchants of every kind: the owner of one made by the operator
// (approved, or suspended since, never having applied) counts as confirmed; a signed-up merchant's
// owner keeps what they had, applied and approved or not; a later user of the team is not touched.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDb } from '../../../test/test-app.js';
import type { Db } from '../db.js';
import { migrations } from './index.js';

describe('migration 021_sandbox_covers_confirmed_owners', () => {
  let db: Db;
  beforeAll(async () => {
    db = await openTestDb();
  });
  afterAll(() => db.close());

  it('confirms the e-mail of operator-made owners only', async () => {
    const rolledBack = new Error('roll back');
    const seen = await db
      .transaction(async (tx) => {
        // A schema of its own, so the shared test store is not touched; the whole run is rolled back.
        await tx.exec('CREATE SCHEMA upgrade_021; SET LOCAL search_path TO upgrade_021');
        const at = migrations.findIndex((m) => m.name === '021_sandbox_covers_confirmed_owners');
        for (const migration of migrations.slice(0, at)) await migration.run(tx);
        const merchant = (idx: string, status: string, appliedAt: string | null) =>
          tx.query(
            `INSERT INTO merchants (idx, name, email, mobile, fee_bps, status, status_changed_at, applied_at, created_at)
             VALUES ($1, $1, $1 || '@example.com', '', 300, $2, now(), $3, '2026-01-01T00:00:00Z')`,
            [idx, status, appliedAt],
          );
        await merchant('cli', 'approved', null);
        await merchant('cli-suspended', 'suspended', null);
        await merchant('signed-up', 'new', null);
        await merchant('applied', 'approved', '2026-01-02T00:00:00Z');
        await tx.query(
          `INSERT INTO merchant_users (merchant_id, email, role, password_hash, email_verified_at, created_at)
           SELECT id, upper(email), 'owner', 'h', NULL, created_at FROM merchants`,
        );
        // Joined later by an invitation the operator never saw (e-mail unconfirmed by hand here).
        await tx.query(
          `INSERT INTO merchant_users (merchant_id, email, role, password_hash, email_verified_at, created_at)
           SELECT id, 'admin@example.com', 'admin', 'h', NULL, '2026-02-01T00:00:00Z' FROM merchants WHERE idx = 'cli'`,
        );
        await migrations[at].run(tx);
        const users = await tx.query('SELECT m.idx, u.role, u.email_verified_at IS NOT NULL AS confirmed FROM merchant_users u JOIN merchants m ON m.id = u.merchant_id ORDER BY m.id, u.id');
        throw Object.assign(rolledBack, { seen: users });
      })
      .catch((error: unknown) => {
        if (error !== rolledBack) throw error;
        return (error as Error & { seen: unknown }).seen;
      });
    expect(seen).toEqual([
      { idx: 'cli', role: 'owner', confirmed: true },
      { idx: 'cli', role: 'admin', confirmed: false },
      { idx: 'cli-suspended', role: 'owner', confirmed: true },
      { idx: 'signed-up', role: 'owner', confirmed: false },
      { idx: 'applied', role: 'owner', confirmed: false },
    ]);
  });
});
