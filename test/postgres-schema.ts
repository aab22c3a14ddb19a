// A schema of its own on DATABASE_URL's PostgreSQL, migrated like the shared one and dropped after:
// for a test file whose jobs act on the whole store, and for each run of the fault simulator.
import { randomBytes } from 'node:crypto';
import type { Db } from '../src/db/db.js';
import { migrate } from '../src/db/migrate.js';
import { openPostgres } from '../src/db/postgres.js';

export async function ownPostgresSchema(url: string, prefix: string, connections: number): Promise<{ db: Db; drop(): Promise<void> }> {
  const schema = `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = openPostgres(url, { max: 1 });
  await admin.exec(`CREATE SCHEMA ${schema}`);
  const db = openPostgres(`${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`, { max: connections });
  await migrate(db);
  return {
    db,
    async drop() {
      await db.close();
      await admin.exec(`DROP SCHEMA ${schema} CASCADE`);
      await admin.close();
    },
  };
}
