import { mkdirSync, openSync, readFileSync, rmSync, writeSync, closeSync } from 'node:fs';
import { join } from 'node:path';

// PGlite is one process's database: a second process opening the same directory would corrupt it.
// The holder writes its pid into a lock file; a lock whose process is gone is stale and taken over.

export class DataDirBusyError extends Error {}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function lockDataDir(dataDir: string, holder: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, 'bhuktani.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, JSON.stringify({ pid: process.pid, holder }));
      closeSync(fd);
      return () => rmSync(path, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      let owner: { pid: number; holder: string } | undefined;
      try {
        owner = JSON.parse(readFileSync(path, 'utf8'));
      } catch {
        owner = undefined;
      }
      if (owner && owner.pid !== process.pid && alive(owner.pid)) {
        throw new DataDirBusyError(
          `the data directory ${dataDir} is in use by a ${owner.holder} (pid ${owner.pid}); stop it first, or use DATABASE_URL with PostgreSQL to share the data`,
        );
      }
      rmSync(path, { force: true });
    }
  }
  throw new DataDirBusyError(`could not lock the data directory ${dataDir}`);
}
