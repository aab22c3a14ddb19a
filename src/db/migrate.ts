import { pgCode, PgCode, type Db } from './db.js';
import { migrations } from './migrations/index.js';

// Any constant works; it only has to be the same for every instance starting against one database.
const MIGRATION_LOCK = 4242_2026;

/** The migrations recorded as applied; the table that records them made on a new database. */
async function recordedMigrations(db: Db): Promise<{ name: string }[]> {
  try {
    return await db.query<{ name: string }>('SELECT name FROM schema_migrations');
  } catch (error) {
    if (pgCode(error) !== PgCode.undefinedTable) throw error;
    await db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
    return db.query<{ name: string }>('SELECT name FROM schema_migrations');
  }
}

/** Applies the migrations not yet recorded. Safe when several instances start at once. */
export async function migrate(db: Db): Promise<string[]> {
  const applied: string[] = [];
  // A restart finds them all recorded: one read instead of a locked transaction per migration. A
  // recorded one is done for good; the rest are checked again under the lock, as before.
  const recorded = new Set((await recordedMigrations(db)).map((row) => row.name));
  for (const migration of migrations) {
    if (recorded.has(migration.name)) continue;
    await db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      const done = await tx.query('SELECT 1 FROM schema_migrations WHERE name = $1', [migration.name]);
      if (done.length > 0) return;
      await migration.run(tx);
      await tx.query('INSERT INTO schema_migrations (name) VALUES ($1)', [migration.name]);
      applied.push(migration.name);
    });
  }
  return applied;
}
