// The two pools of a PostgreSQL store: batch statements keep one generic plan per statement, every
// other statement PostgreSQL's default, from a connection's first statement on.
import { describe, expect, it } from 'vitest';
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
      const batch = await Promise.all(Array.from({ length: 8 }, () => db.batches!.query<{ plan_cache_mode: string }>('SHOW plan_cache_mode')));
      expect(batch.map(([row]) => row.plan_cache_mode)).toEqual(Array(8).fill('force_generic_plan'));
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
});
