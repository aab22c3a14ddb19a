import { join } from 'node:path';
import type { Config } from '../config.js';
import type { Db } from './db.js';
import { lockDataDir } from './data-dir-lock.js';
import { migrate } from './migrate.js';
import { openPglite } from './pglite.js';
import { openPostgres } from './postgres.js';

/** Opens the configured store, locks an embedded data directory, and brings the schema up to date. */
export async function openDb(config: Config, holder: 'server' | 'command'): Promise<Db> {
  if (config.databaseUrl?.startsWith('postgres')) {
    const db = openPostgres(config.databaseUrl);
    await migrate(db);
    return db;
  }
  if (config.databaseUrl === 'memory:') {
    const db = await openPglite();
    await migrate(db);
    return db;
  }
  const unlock = lockDataDir(config.dataDir, holder);
  try {
    const db = await openPglite({ dataDir: join(config.dataDir, 'pglite') });
    await migrate(db);
    const close = db.close.bind(db);
    return { ...db, close: async () => { await close(); unlock(); } };
  } catch (error) {
    unlock();
    throw error;
  }
}
