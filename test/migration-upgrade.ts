// One migration run on a store as it was just before it: every earlier migration, then `before`'s rows,
// then the migration, then what `after` reads; all in a schema of its own inside one transaction that
// is rolled back, so the shared test store is never touched.
import type { Queryable } from '../src/db/db.js';
import { migrations } from '../src/db/migrations/index.js';
import { openTestDb } from './test-app.js';

export async function afterUpgrade<T>(name: string, steps: { before(tx: Queryable): Promise<void>; after(tx: Queryable): Promise<T> }): Promise<T> {
  const rolledBack = new Error('roll back');
  let seen: T | undefined;
  const db = await openTestDb();
  await db
    .transaction(async (tx) => {
      await tx.exec(`CREATE SCHEMA upgrade_${name}; SET LOCAL search_path TO upgrade_${name}`);
      const at = migrations.findIndex((m) => m.name === name);
      if (at < 0) throw new Error(`no migration ${name}`);
      for (const migration of migrations.slice(0, at)) await migration.run(tx);
      await steps.before(tx);
      await migrations[at].run(tx);
      seen = await steps.after(tx);
      throw rolledBack;
    })
    .catch((error: unknown) => {
      if (error !== rolledBack) throw error;
    })
    .finally(() => db.close());
  return seen!;
}
