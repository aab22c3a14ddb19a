// Migration 030 on a store with payments: every payment made before came through the v2 API; eSewa's
// test IDs become funded sandbox wallets, once; and the same order id may be paid again through the
// v2 API, as before, while an eSewa door's order id names one payment.
import { describe, expect, it } from 'vitest';
import { afterUpgrade } from '../../../test/migration-upgrade.js';
import { pgCode, PgCode } from '../db.js';
import { esewaSandboxPayers, seedSandboxWallets } from '../../wallets/sandbox-wallets.js';

describe('migration 030_esewa_door', () => {
  it('marks the payments before as the v2 API’s, seeds eSewa’s sandbox payers funded, and keeps one payment per eSewa order', async () => {
    const seen = await afterUpgrade('030_esewa_door', {
      async before(tx) {
        await tx.query(`INSERT INTO merchants (idx, name, email, mobile, fee_bps, status, status_changed_at, created_at) VALUES ('m', 'M', 'm@example.com', '', 300, 'approved', now(), now())`);
        for (const pidx of ['p1', 'p2']) {
          await tx.query(
            `INSERT INTO payments (pidx, merchant_id, environment, purchase_order_id, purchase_order_name, amount, fee, return_url, website_url, status, created_at, expires_at, updated_at)
             SELECT $1, id, 'test', 'order-1', 'Tea', 1000, 30, 'https://shop.example.com/r', 'https://shop.example.com', 'Initiated', now(), now() + interval '1 hour', now() FROM merchants`,
            [pidx],
          );
        }
      },
      async after(tx) {
        const doors = await tx.query<{ pidx: string; door: string; door_fields: unknown }>('SELECT pidx, door, door_fields FROM payments ORDER BY pidx');
        const wallets = await tx.query<{ mobile: string; name: string; sandbox: boolean; balance: number }>(
          `SELECT w.mobile, w.name, w.sandbox, a.balance FROM wallets w JOIN ledger_accounts a ON a.kind = 'wallet' AND a.owner_id = w.id AND a.environment = w.environment
            WHERE w.mobile LIKE '98068%' ORDER BY w.mobile`,
        );
        // Seeded again (a store whose 003 already had them, say): nothing is made or funded twice.
        await seedSandboxWallets(tx, esewaSandboxPayers);
        const again = await tx.query<{ n: number }>(`SELECT count(*)::int AS n FROM wallets WHERE mobile LIKE '98068%'`);
        const insert = (pidx: string, door: string) =>
          tx.query(
            `INSERT INTO payments (pidx, merchant_id, environment, purchase_order_id, purchase_order_name, amount, fee, return_url, website_url, status, created_at, expires_at, updated_at, door)
             SELECT $1, id, 'test', 'order-2', 'Tea', 1000, 30, 'https://shop.example.com/r', 'https://shop.example.com', 'Initiated', now(), now() + interval '1 hour', now(), $2 FROM merchants`,
            [pidx, door],
          );
        await insert('v2-a', 'khalti-v2');
        await insert('v2-b', 'khalti-v2');
        await insert('esewa-a', 'esewa-v2');
        await insert('esewa-v1-a', 'esewa-v1');
        const second = await tx.query('SAVEPOINT s').then(() => insert('esewa-b', 'esewa-v2').then(() => 'stored', (error: unknown) => pgCode(error)));
        await tx.query('ROLLBACK TO SAVEPOINT s');
        const otherDoor = await tx.query('SAVEPOINT t').then(() => insert('x', 'another-door').then(() => 'stored', (error: unknown) => pgCode(error)));
        await tx.query('ROLLBACK TO SAVEPOINT t');
        return { doors, wallets, again: again[0].n, second, otherDoor };
      },
    });
    expect(seen.doors).toEqual([
      { pidx: 'p1', door: 'khalti-v2', door_fields: null },
      { pidx: 'p2', door: 'khalti-v2', door_fields: null },
    ]);
    expect(seen.wallets).toEqual(['1', '2', '3', '4', '5'].map((n) => ({ mobile: `980680000${n}`, name: `eSewa Sandbox Payer ${n}`, sandbox: true, balance: 100_000_000 })));
    expect(seen.again).toBe(5);
    expect(seen.second).toBe(PgCode.uniqueViolation);
    expect(seen.otherDoor).toBe('23514');
  });
});
