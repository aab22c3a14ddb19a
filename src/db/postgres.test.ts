// The two pools of a PostgreSQL store: batch statements keep one generic plan per statement, made
// without sequential scans (batch-plans.test.ts), every other statement PostgreSQL's default, from a
// connection's first statement on.
import { describe, expect, it } from 'vitest';
import { isUnavailable } from './db.js';
import { openPostgres } from './postgres.js';

const url = process.env.DATABASE_URL;

describe.skipIf(!url)('the PostgreSQL store', () => {
  it('runs batch statements with generic plans on every connection, and the rest with the default', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.message);
    process.on('warning', onWarning);
    const db = openPostgres(url!, { max: 2 });
    try {
      // At once, so that each statement opens a connection of its own and runs first on it.
      const batch = await Promise.all(
        Array.from({ length: 8 }, () => db.batches!.query<{ plan_cache_mode: string; enable_seqscan: string }>("SELECT current_setting('plan_cache_mode') AS plan_cache_mode, current_setting('enable_seqscan') AS enable_seqscan")),
      );
      expect(batch.map(([row]) => row)).toEqual(Array(8).fill({ plan_cache_mode: 'force_generic_plan', enable_seqscan: 'off' }));
      const single = await Promise.all(Array.from({ length: 2 }, () => db.query<{ plan_cache_mode: string }>('SHOW plan_cache_mode')));
      expect(single.map(([row]) => row.plan_cache_mode)).toEqual(['auto', 'auto']);
      // The SET is answered before the connection is handed out, not queued beside its first statement.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).toEqual([]);
    } finally {
      process.off('warning', onWarning);
      await db.close();
    }
  });

  it('drops a connection whose node stopped taking writes (25006), and the next statement connects afresh', async () => {
    const db = openPostgres(url!, { max: 1 });
    try {
      // The one connection becomes what a demoted primary is: read-only.
      await db.exec('SET default_transaction_read_only = on');
      const [before] = await db.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      const refused = await db.query('CREATE TEMP TABLE failover_probe (n int)').catch((error: unknown) => error);
      expect(refused).toMatchObject({ code: '25006' });
      expect(isUnavailable(refused)).toBe(true);
      const [after] = await db.query<{ pid: number; read_only: string }>("SELECT pg_backend_pid() AS pid, current_setting('default_transaction_read_only') AS read_only");
      expect(after.pid).not.toBe(before.pid);
      expect(after.read_only).toBe('off');
    } finally {
      await db.close();
    }
  });
});
