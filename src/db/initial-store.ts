import { closeSync, existsSync, fstatSync, ftruncateSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { copyFile, truncate } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { alive } from './data-dir-lock.js';
import { migrate } from './migrate.js';
import { openPglite } from './pglite.js';

// The embedded store's initdb is most of a first start (4.7 s against 1.1–1.8 s for a restart).
// `npm run build` (and so `npm install`) runs it once, migrations included, into dist/initial-store;
// a first start copies that directory (20 MB, a fraction of a second) and opens it as a restart does.
// A plain directory rather than a tarball for PGlite's loadDataDir: that unpacks file by file through
// the WebAssembly file system, measured slower than initdb's own writes plus a copy. The in-memory
// store (`DATABASE_URL=memory:`) has no directory to copy into: it loads the same store as a tarball
// (dist/initial-store.tar), 0.4 s where initdb and the migrations took 2.5–3 s.

/** Beside the compiled code, found the same from src/db (tsx) and dist/db. */
export const INITIAL_STORE = fileURLToPath(new URL('../../dist/initial-store', import.meta.url));

/** The tarball of a store's directory, beside it. */
export const dumpOf = (dir: string) => `${dir}.tar`;

/**
 * A data directory initdb'd and migrated, at `dir`, and the same as a tarball at `dumpOf(dir)`
 * (each replaced whole, never half-written).
 */
export async function writeInitialStore(dir: string): Promise<void> {
  const partial = `${dir}.partial`;
  rmSync(partial, { recursive: true, force: true });
  const db = await openPglite({ dataDir: partial });
  await migrate(db);
  // PGlite opens `postgres` only; initdb's two template databases are 14 of the store's 40 MB, and a
  // first start writes every byte of its copy. Nothing here creates databases from them.
  await db.exec("UPDATE pg_database SET datistemplate = false WHERE datname IN ('template0', 'template1')");
  await db.exec('DROP DATABASE template0');
  await db.exec('DROP DATABASE template1');
  // The migrations' WAL is not needed once a checkpoint holds their work: a new segment begun just
  // before the checkpoint holds it, and only that one is kept (the others are the migrations' and
  // one recycled for later), 9 MB less for a first start to copy.
  await db.query('SELECT pg_switch_wal()');
  await db.exec('CHECKPOINT');
  const [{ redo_wal_file: redoSegment }] = await db.query<{ redo_wal_file: string }>('SELECT redo_wal_file FROM pg_control_checkpoint()');
  writeFileSync(`${partial}.tar`, Buffer.from(await (await db.dump()).arrayBuffer()));
  await db.close();
  for (const segment of walSegments(partial)) if (!segment.endsWith(redoSegment)) rmSync(segment);
  for (const segment of walSegments(partial)) trimTrailingZeros(segment);
  rmSync(dir, { recursive: true, force: true });
  rmSync(spareOf(dir), { recursive: true, force: true });
  renameSync(partial, dir);
  renameSync(`${partial}.tar`, dumpOf(dir));
  await refillSpare(dir);
}

/** The prepared store as a tarball for an in-memory PGlite to start from; undefined when not built. */
export function initialDump(from = INITIAL_STORE): Blob | undefined {
  return existsSync(dumpOf(from)) ? new Blob([readFileSync(dumpOf(from))]) : undefined;
}

/*
 * A WAL segment is 16 MB, of which the kept one uses a few kB; the rest is zeros (a new segment is
 * zero-filled). The prepared store keeps the used part only, and a first start extends its copy back
 * to the segment's size with a hole, which reads as the same zeros.
 */
const WAL_SEGMENT_BYTES = 16 * 1024 * 1024;
const WAL_SEGMENT_NAME = /^[0-9A-F]{24}$/;

function walSegments(dataDir: string): string[] {
  const wal = join(dataDir, 'pg_wal');
  return readdirSync(wal).filter((name) => WAL_SEGMENT_NAME.test(name)).map((name) => join(wal, name));
}

/** Cuts `path` after its last page (8 kB) that holds anything but zeros. */
function trimTrailingZeros(path: string): void {
  const page = Buffer.alloc(8192);
  const fd = openSync(path, 'r+');
  try {
    let end = fstatSync(fd).size;
    while (end > 0) {
      const start = Math.max(0, end - page.length);
      const read = readSync(fd, page, 0, end - start, start);
      if (page.subarray(0, read).some((byte) => byte !== 0)) break;
      end = start;
    }
    ftruncateSync(fd, end);
  } finally {
    closeSync(fd);
  }
}

/** A copy of the initial store beside it, for the next first start to take whole (a rename, no copy). */
export const spareOf = (from: string) => `${from}.spare`;

/**
 * Makes `dataDir` a copy of the initial store if it does not exist yet; false when it exists or there
 * is no initial store (PGlite then runs initdb). The copy is the spare beside the initial store when
 * there is one and it is on the same file system (renamed in: about 190 ms of a first start's copy
 * saved), a copy otherwise; it lands under another name and is renamed, so a crash midway leaves no
 * half store to open. A spare taken is made again by `refillSpare`.
 */
export async function seedDataDir(dataDir: string, from = INITIAL_STORE): Promise<boolean> {
  if (existsSync(dataDir) || !existsSync(`${from}/PG_VERSION`)) return false;
  const partial = `${dataDir}.partial`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(dirname(partial), { recursive: true });
  try {
    // Atomic: of two first starts, one takes it.
    renameSync(spareOf(from), partial);
  } catch {
    await copyTree(from, partial);
  }
  await Promise.all(walSegments(partial).map((segment) => truncate(segment, WAL_SEGMENT_BYTES)));
  renameSync(partial, dataDir);
  return true;
}

/**
 * Makes the spare again when there is none (a first start took it); quietly nothing where it cannot
 * be written, and never a failure (it runs on the store's thread). Each process copies into a
 * directory of its own, named by its pid, and only a whole copy is renamed in; one left by a process
 * that died midway is removed here.
 */
export async function refillSpare(from = INITIAL_STORE): Promise<void> {
  const spare = spareOf(from);
  if (existsSync(spare) || !existsSync(`${from}/PG_VERSION`)) return;
  const [parent, base] = [dirname(spare), basename(spare)];
  const partial = `${spare}.${process.pid}.partial`;
  try {
    for (const name of readdirSync(parent)) {
      const pid = name.startsWith(`${base}.`) && name.endsWith('.partial') ? name.slice(base.length + 1, -'.partial'.length) : '';
      if (/^\d+$/.test(pid) && !alive(Number(pid))) rmSync(join(parent, name), { recursive: true, force: true });
    }
    await copyTree(from, partial);
    renameSync(partial, spare);
  } catch {
    // Read-only, full, or another process's spare landed first: the next first start copies.
  } finally {
    try {
      rmSync(partial, { recursive: true, force: true });
    } catch {
      // Left for the next refill to remove: a refill never fails the store's thread.
    }
  }
}

/*
 * About 600 files, 11 MB: copied several at a time by the kernel (copyFile), in 70–90 ms on the
 * 2-core machine where fs.cpSync took 130–260 ms, most of what a first start cost beyond a restart.
 */
const COPIES_AT_ONCE = 8;

async function copyTree(from: string, to: string): Promise<void> {
  const files: [string, string][] = [];
  const walk = (source: string, target: string) => {
    mkdirSync(target, { recursive: true });
    for (const entry of readdirSync(source, { withFileTypes: true })) {
      const [a, b] = [join(source, entry.name), join(target, entry.name)];
      if (entry.isDirectory()) walk(a, b);
      else files.push([a, b]);
    }
  };
  walk(from, to);
  let next = 0;
  await Promise.all(
    Array.from({ length: COPIES_AT_ONCE }, async () => {
      while (next < files.length) {
        const [a, b] = files[next++];
        await copyFile(a, b);
      }
    }),
  );
}
