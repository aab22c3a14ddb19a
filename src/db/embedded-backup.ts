// The embedded store's backups (`bhuktani backup`, `bhuktani restore`): a consistent copy of a
// stopped store's data directory (a running server's is asked of it: backup-socket.ts), and a restore
// that fills an empty DATA_DIR beside its final place and moves it there whole, so nothing
// half-written is left. The file's format, and its refusal of a damaged or foreign one, are
// backup-file.ts's.
// PostgreSQL's backups are pgBackRest's (docs/deploy.md).
import { existsSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { BackupError } from './backup-error.js';
import { lockDataDir } from './data-dir-lock.js';
import { copyOfStore, createPglite } from './pglite.js';
import type { StoreCopy } from './store-thread-protocol.js';
import type { BackupFacts } from './backup-file.js';

/** A copy of the store in `dataDir`, opened by this process (no server holds it). */
export async function copyStoppedStore(dataDir: string): Promise<StoreCopy> {
  const storeDir = join(dataDir, 'pglite');
  if (!existsSync(storeDir)) throw new BackupError(`${dataDir} holds no store to back up`);
  const unlock = await lockDataDir(dataDir, 'backup');
  try {
    const pg = await createPglite({ dataDir: storeDir });
    try {
      return await copyOfStore(pg);
    } finally {
      await pg.close();
    }
  } finally {
    unlock();
  }
}

/**
 * Fills the empty `dataDir` from a backup file (already read: `readBackup`): PGlite opens the copy in
 * a directory beside the store's place, answers one query, and the directory is moved into place.
 * A running server's, or any non-empty, DATA_DIR is refused.
 */
export async function restoreInto(dataDir: string, backup: { facts: BackupFacts; tarball: Buffer }): Promise<void> {
  const unlock = await lockDataDir(dataDir, 'restore');
  const storeDir = join(dataDir, 'pglite');
  const filling = join(dataDir, `pglite.restoring-${process.pid}`);
  try {
    // A restore killed midway left its directory beside the store's place: it goes first.
    for (const name of readdirSync(dataDir).filter((n) => /^pglite\.restoring-\d+$/.test(n))) rmSync(join(dataDir, name), { recursive: true, force: true });
    const held = readdirSync(dataDir).filter((name) => !name.startsWith('bhuktani.lock'));
    if (held.length > 0) throw new BackupError(`${dataDir} is not empty (it holds ${held.join(', ')}): restore into an empty DATA_DIR`);
    const pg = await createPglite({ dataDir: filling, loadDataDir: new Blob([new Uint8Array(backup.tarball)]) });
    try {
      const [{ schema }] = (await pg.query<{ schema: string }>('SELECT max(name) AS schema FROM schema_migrations')).rows;
      if (schema !== backup.facts.schema) throw new BackupError(`the backup is damaged: its store's schema is ${schema}, not ${backup.facts.schema}`);
    } finally {
      await pg.close();
    }
    renameSync(filling, storeDir);
  } catch (error) {
    rmSync(filling, { recursive: true, force: true });
    throw error;
  } finally {
    unlock();
  }
}
