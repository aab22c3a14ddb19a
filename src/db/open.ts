import { join } from 'node:path';
import type { Config } from '../config.js';
import type { Db } from './db.js';
import { lockDataDir } from './data-dir-lock.js';
import { migrate } from './migrate.js';
import { prepareStoreCode } from './pglite-code.js';

/** Opens the configured store, locks an embedded data directory, and brings the schema up to date. */
export async function openDb(config: Config, holder: 'server' | 'command'): Promise<Db> {
  if (config.databaseUrl?.startsWith('postgres')) {
    // Loaded only when used, as the embedded store's code is below: each costs a start the other's load.
    const { openPostgres } = await import('./postgres.js');
    if (holder === 'command') {
      const db = openPostgres(config.databaseUrl);
      await migrate(db);
      return db;
    }
    // Migrations may take long (an index on a big table, another instance migrating first): they
    // run without the server's statement timeout, on a connection of their own.
    const migrator = openPostgres(config.databaseUrl, { max: 1 });
    try {
      await migrate(migrator);
    } finally {
      await migrator.close();
    }
    // The server's statements are short, and a hung database must not hang its requests.
    const primary = openPostgres(config.databaseUrl, { queryTimeoutMs: config.dbStatementTimeoutMs });
    if (!config.readDatabaseUrl) return primary;
    // Replicas for the reads that tolerate lag (`lagging`); they never migrate (read-only).
    const replicas = openPostgres(config.readDatabaseUrl, { queryTimeoutMs: config.dbStatementTimeoutMs });
    return {
      ...primary,
      reads: replicas,
      close: async () => {
        await Promise.all([primary.close(), replicas.close()]);
      },
    };
  }
  prepareStoreCode();
  const [{ openPglite }, { initialDump, seedDataDir }] = await Promise.all([import('./pglite.js'), import('./initial-store.js')]);
  if (config.databaseUrl === 'memory:') {
    const db = await openPglite({ loadDataDir: initialDump() });
    await migrate(db);
    return db;
  }
  const unlock = await lockDataDir(config.dataDir, holder);
  try {
    const dataDir = join(config.dataDir, 'pglite');
    await seedDataDir(dataDir);
    const db = await openPglite({ dataDir });
    await migrate(db);
    const close = db.close.bind(db);
    return { ...db, close: async () => { await close(); unlock(); } };
  } catch (error) {
    unlock();
    throw error;
  }
}
