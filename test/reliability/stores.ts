// One shape for "the store a suite runs its servers on", PGlite or PostgreSQL, so a suite can be
// written once and run on both.
import type { Queryable } from '../../src/db/db.js';
import { openPostgres } from '../../src/db/postgres.js';
import { tempDir } from '../processes.js';
import { postgresUrl, preparePglite, preparePostgres, scratchDatabase, withDataDir, type ShopMerchant } from './store.js';

export interface TestStore {
  kind: 'pglite' | 'postgres';
  /** What a server or the CLI needs to use it: DATA_DIR or DATABASE_URL. */
  env: Record<string, string>;
  merchant: ShopMerchant;
  /** Runs `work` on the store. PGlite: only while no server holds the directory. */
  inspect<T>(work: (db: Queryable) => Promise<T>): Promise<T>;
  remove(): Promise<void>;
}

/**
 * The store to run on, the run's own as for every other test: PostgreSQL when DATABASE_URL names a
 * server, PGlite otherwise (CI's PGlite run covers PGlite; its PostgreSQL run no longer repeats it).
 */
export const storeKinds: ('pglite' | 'postgres')[] = postgresUrl() ? ['postgres'] : ['pglite'];

/** A fresh store with one merchant whose sandbox webhooks go to `webhookUrl`. */
export async function openTestStore(kind: 'pglite' | 'postgres', label: string, webhookUrl: string | null): Promise<TestStore> {
  if (kind === 'pglite') {
    const dir = tempDir(`bhuktani-${label}-`);
    const merchant = await preparePglite(dir.path, webhookUrl);
    return {
      kind,
      env: { DATA_DIR: dir.path },
      merchant,
      inspect: (work) => withDataDir(dir.path, work),
      remove: async () => dir.remove(),
    };
  }
  const database = await scratchDatabase(postgresUrl()!, `bhuktani_${label}_${process.pid}`);
  const merchant = await preparePostgres(database.url, webhookUrl);
  const db = openPostgres(database.url, { max: 3 });
  return {
    kind,
    env: { DATABASE_URL: database.url },
    merchant,
    inspect: (work) => work(db),
    remove: async () => {
      await db.close();
      await database.drop();
    },
  };
}
