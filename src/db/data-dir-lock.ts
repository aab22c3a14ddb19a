import { closeSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';

// PGlite is one process's database: a second process opening the same directory would corrupt it.
//
// The lock is a kernel object, not a pid. On Linux the holder binds an abstract Unix socket named
// for the directory (its device and inode): binding is atomic, so of any number of racing processes
// exactly one wins, and the kernel frees the name when the holder's descriptors close, which is at
// its death, before it is even a zombie, whatever process later gets its pid. A pid with its start
// time would need a stale-lock takeover built from renames that stays racy when a taker dies midway,
// and an flock() needs a native addon compiled on every install; the socket needs neither.
// It holds within one network namespace (containers sharing a data volume must share it too).
// A killed holder is a zombie some milliseconds before its other threads have exited and the kernel
// closes its descriptors: a start that finds the holder dying waits for that, a few tries at most.
//
// The lock file only says who holds the directory, for the refusal's message. Where abstract sockets
// do not exist (macOS, Windows) it is the lock itself, as before: stale when its pid is gone.

export class DataDirBusyError extends Error {
  override readonly name = 'DataDirBusyError';
}

interface Holder {
  pid: number;
  holder: string;
}

const abstractSockets = process.platform === 'linux';
const DYING_HOLDER_WAIT_MS = 20;
const DYING_HOLDER_TRIES = 100;

function readHolder(path: string): Holder | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as Holder;
  } catch {
    return undefined;
  }
}

function busy(dataDir: string, owner: Holder | undefined): DataDirBusyError {
  const who = owner ? `a ${owner.holder} (pid ${owner.pid})` : 'another process';
  return new DataDirBusyError(
    `the data directory ${dataDir} is in use by ${who}; stop it first, or use DATABASE_URL with PostgreSQL to share the data`,
  );
}

/** Written to a private name then renamed: a reader never sees half a file. */
function writeHolder(path: string, holder: string): void {
  const temporary = `${path}.${process.pid}`;
  writeFileExclusive(temporary, JSON.stringify({ pid: process.pid, holder }));
  renameSync(temporary, path);
}

function writeFileExclusive(path: string, text: string): void {
  const fd = openSync(path, 'wx');
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
}

function bindAbstract(name: string): Promise<Server | undefined> {
  return new Promise((resolve, reject) => {
    // Nobody is meant to connect; one who does is hung up on.
    const server = createServer((socket) => socket.destroy());
    server.once('error', (error: NodeJS.ErrnoException) => (error.code === 'EADDRINUSE' ? resolve(undefined) : reject(error)));
    server.listen(`\0${name}`, () => resolve(server.unref()));
  });
}

/** Locks `dataDir` for this process; resolves to its release, or rejects with DataDirBusyError. */
export async function lockDataDir(dataDir: string, holder: string): Promise<() => void> {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, 'bhuktani.lock');
  if (!abstractSockets) return lockByPid(dataDir, path, holder);
  const { dev, ino } = statSync(dataDir);
  const name = `bhuktani-data-dir/${dev}/${ino}`;
  let server = await bindAbstract(name);
  for (let wait = 0; !server && wait < DYING_HOLDER_TRIES && dying(readHolder(path)); wait++) {
    await new Promise((resolve) => setTimeout(resolve, DYING_HOLDER_WAIT_MS));
    server = await bindAbstract(name);
  }
  if (!server) throw busy(dataDir, readHolder(path));
  rmSync(`${path}.${process.pid}`, { force: true });
  writeHolder(path, holder);
  return () => {
    rmSync(path, { force: true });
    server.close();
  };
}

/** The recorded holder is gone or a zombie (state Z in /proc/<pid>/stat). */
function dying(owner: Holder | undefined): boolean {
  if (!owner) return false;
  try {
    return readFileSync(`/proc/${owner.pid}/stat`, 'utf8').replace(/^.*\) /s, '').startsWith('Z');
  } catch {
    return true;
  }
}

/** A process `pid` runs (one this process may not signal runs too). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function lockByPid(dataDir: string, path: string, holder: string): () => void {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileExclusive(path, JSON.stringify({ pid: process.pid, holder }));
      return () => rmSync(path, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = readHolder(path);
      if (owner && owner.pid !== process.pid && alive(owner.pid)) throw busy(dataDir, owner);
      rmSync(path, { force: true });
    }
  }
  throw new DataDirBusyError(`could not lock the data directory ${dataDir}`);
}
