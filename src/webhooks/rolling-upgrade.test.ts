// A rolling upgrade on PostgreSQL: a newer instance's migration adds a column while an older
// instance keeps running. Its statements are prepared per connection and pin their result columns,
// so one that selects `*` fails from then on ("cached plan must not change result type") on every
// connection that had prepared it. The webhook sender's claim names its columns and goes on.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { migrate } from '../db/migrate.js';
import { openPostgres } from '../db/postgres.js';
import { claimDueDeliveries, listDeliveries } from './webhook-store.js';

const url = process.env.DATABASE_URL;

describe.skipIf(!url?.startsWith('postgres'))('webhook deliveries during a rolling upgrade', () => {
  it('are claimed and listed on a connection that prepared the statements before a column was added', async () => {
    const schema = `upgrade_${process.pid}_${randomBytes(4).toString('hex')}`;
    const admin = openPostgres(url!, { max: 1 });
    await admin.exec(`CREATE SCHEMA ${schema}`);
    // One connection, so the second claim runs on the connection that prepared the first.
    const older = openPostgres(`${url}${url!.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`, { max: 1 });
    try {
      await migrate(older);
      const now = new Date();
      expect(await claimDueDeliveries(older.batches ?? older, now, 10, 30)).toEqual([]);
      expect(await listDeliveries(older, 1, 'test')).toEqual([]);
      await admin.exec(`ALTER TABLE ${schema}.webhook_deliveries ADD COLUMN added_by_a_newer_release text`);
      expect(await claimDueDeliveries(older.batches ?? older, now, 10, 30)).toEqual([]);
      expect(await listDeliveries(older, 1, 'test')).toEqual([]);
    } finally {
      await older.close();
      await admin.exec(`DROP SCHEMA ${schema} CASCADE`);
      await admin.close();
    }
  });
});
