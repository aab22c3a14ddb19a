import { cpSync, existsSync, renameSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { migrate } from './migrate.js';
import { openPglite } from './pglite.js';

// The embedded store's initdb is most of a first start (4.7 s against 1.1–1.8 s for a restart).
// `npm run build` (and so `npm install`) runs it once, migrations included, into dist/initial-store;
// a first start copies that directory (40 MB, a fraction of a second) and opens it as a restart does.
// A plain directory rather than a tarball for PGlite's loadDataDir: that unpacks file by file through
// the WebAssembly file system, measured slower than initdb's own writes plus a copy.

/** Beside the compiled code, found the same from src/db (tsx) and dist/db. */
export const INITIAL_STORE = fileURLToPath(new URL('../../dist/initial-store', import.meta.url));

/** A data directory initdb'd and migrated, at `dir` (replaced whole, never half-written). */
export async function writeInitialStore(dir: string): Promise<void> {
  const partial = `${dir}.partial`;
  rmSync(partial, { recursive: true, force: true });
  const db = await openPglite({ dataDir: partial });
  await migrate(db);
  await db.close();
  rmSync(dir, { recursive: true, force: true });
  renameSync(partial, dir);
}

/**
 * Makes `dataDir` a copy of the initial store if it does not exist yet; false when it exists or there
 * is no initial store (PGlite then runs initdb). The copy lands under another name and is renamed,
 * so a crash midway leaves no half store to open.
 */
export function seedDataDir(dataDir: string, from = INITIAL_STORE): boolean {
  if (existsSync(dataDir) || !existsSync(`${from}/PG_VERSION`)) return false;
  const partial = `${dataDir}.partial`;
  rmSync(partial, { recursive: true, force: true });
  cpSync(from, partial, { recursive: true });
  renameSync(partial, dataDir);
  return true;
}
