// A migration run on a store that already holds data: in a schema of its own (the shared test store is
// not touched), the migrations before it, the test's rows, the migration, and what the test reads
// then; the whole run is rolled back.
import type { Db, Queryable } from '../src/db/db.js';
import { migrations } from '../src/db/migrations/index.js';

export async function afterUpgrade<T>(db: Db, name: string, seed: (tx: Queryable) => Promise<void>, read: (tx: Queryable) => Promise<T>): Promise<T> {
  const rolledBack = new Error('roll back');
  let seen: T | undefined;
  await db
    .transaction(async (tx) => {
      await tx.exec(`CREATE SCHEMA upgrade_${name}; SET LOCAL search_path TO upgrade_${name}`);
      const at = migrations.findIndex((m) => m.name === name);
      if (at < 0) throw new Error(`no migration ${name}`);
      for (const migration of migrations.slice(0, at)) await migration.run(tx);
      await seed(tx);
      await migrations[at].run(tx);
      seen = await read(tx);
      throw rolledBack;
    })
    .catch((error: unknown) => {
      if (error !== rolledBack) throw error;
    });
  return seen as T;
}
