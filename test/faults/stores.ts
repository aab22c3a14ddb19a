// A store for each run of the fault simulator, so that a seed replays alone as it ran among others:
// on PGlite a copy of one migrated store prepared once per process (no initdb per run); on
// PostgreSQL (DATABASE_URL) a schema of the run's own, migrated and dropped after.
import type { Db } from '../../src/db/db.js';
import { initialDump } from '../../src/db/initial-store.js';
import { migrate } from '../../src/db/migrate.js';
import { openPglite } from '../../src/db/pglite.js';
import { ownPostgresSchema } from '../postgres-schema.js';

export type StoreOpener = () => Promise<{ db: Db; drop(): Promise<void> }>;

export function runStores(url = process.env.DATABASE_URL): StoreOpener {
  if (url?.startsWith('postgres')) return () => ownPostgresSchema(url, 'faults', 10);
  let prepared: Promise<Blob> | undefined;
  return async () => {
    prepared ??= (async () => {
      // The build's prepared store when there is one, brought up to date by migrations added since.
      const db = await openPglite({ loadDataDir: initialDump() });
      await migrate(db);
      const dump = await db.dump();
      await db.close();
      return dump;
    })();
    const db = await openPglite({ loadDataDir: await prepared });
    return { db, drop: () => db.close() };
  };
}
