// A database the test may take down: a private PostgreSQL cluster (initdb in a temporary directory,
// its own port, started and stopped with pg_ctl as the postgres user), never the machine's shared
// server. Where no cluster can be made (not root, no PostgreSQL binaries), a TCP proxy in front of
// DATABASE_URL's server stands in: "down" closes every connection through it and refuses new ones.
import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort, postgresProcesses } from '../processes.js';
import { postgresUrl, scratchDatabase } from './store.js';

const run = promisify(execFile);

export interface OutageDatabase {
  /** `private cluster` or `proxy`. */
  kind: string;
  url: string;
  /** Takes the database away; resolves once it is gone. */
  down(): Promise<void>;
  /** Brings it back; resolves once it accepts connections. */
  up(): Promise<void>;
  /**
   * Private cluster only: every PostgreSQL process stops (SIGSTOP) without closing anything, as a
   * hung host or a network that drops packets: connections open, nothing answers. `thaw` undoes it.
   */
  freeze?(): void;
  thaw?(): void;
  remove(): Promise<void>;
}

const PG_LIB = '/usr/lib/postgresql';

function postgresBin(): string | undefined {
  if (process.getuid?.() !== 0 || !existsSync(PG_LIB)) return undefined;
  const version = readdirSync(PG_LIB).sort().at(-1);
  const bin = version && join(PG_LIB, version, 'bin');
  return bin && existsSync(join(bin, 'initdb')) && existsSync(join(bin, 'pg_ctl')) ? bin : undefined;
}

function postgresUser(): { uid: number; gid: number } | undefined {
  const line = readFileSync('/etc/passwd', 'utf8').split('\n').find((l) => l.startsWith('postgres:'));
  if (!line) return undefined;
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

/** What `openOutageDatabase` can make here: a private cluster, a proxy to DATABASE_URL's server, or nothing. */
export function outageDatabaseKind(): 'private cluster' | 'proxy' | undefined {
  if (postgresBin() && postgresUser()) return 'private cluster';
  return postgresUrl() ? 'proxy' : undefined;
}

export async function openOutageDatabase(label: string): Promise<OutageDatabase> {
  const bin = postgresBin();
  const user = postgresUser();
  if (bin && user) return privateCluster(bin, user);
  const serverUrl = postgresUrl();
  if (serverUrl) return proxiedDatabase(serverUrl, label);
  throw new Error('no PostgreSQL to take down: run as root with PostgreSQL installed, or set DATABASE_URL');
}

async function privateCluster(bin: string, user: { uid: number; gid: number }): Promise<OutageDatabase> {
  const dir = mkdtempSync(join(tmpdir(), 'bhuktani-pg-'));
  chownSync(dir, user.uid, user.gid);
  const port = await freePort();
  const asPostgres = (command: string) => run('su', ['postgres', '-c', command], { timeout: 120_000 });
  await asPostgres(`${bin}/initdb -D ${dir}/data -A trust -U postgres --no-sync --no-instructions > ${dir}/initdb.log 2>&1`);
  const pgCtl = (action: string) => asPostgres(`${bin}/pg_ctl -D ${dir}/data -l ${dir}/log -w -t 60 ${action}`);
  const start = () => pgCtl(`-o "-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off" start`);
  let running = false;
  await start();
  running = true;
  const processes = () => postgresProcesses(join(dir, 'data'));
  let frozen: number[] = [];
  return {
    kind: 'private cluster',
    freeze() {
      frozen = processes();
      for (const pid of frozen) process.kill(pid, 'SIGSTOP');
    },
    thaw() {
      for (const pid of frozen) process.kill(pid, 'SIGCONT');
      frozen = [];
    },
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async down() {
      // As a crash or a pulled plug: no checkpoint, every connection cut.
      await pgCtl('-m immediate stop');
      running = false;
    },
    async up() {
      await start();
      running = true;
    },
    async remove() {
      for (const pid of frozen) process.kill(pid, 'SIGCONT');
      if (running) await pgCtl('-m immediate stop').catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function proxiedDatabase(serverUrl: string, label: string): Promise<OutageDatabase> {
  const database = await scratchDatabase(serverUrl, `bhuktani_${label}_${process.pid}`);
  const target = new URL(database.url);
  const port = await freePort();
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  const listen = () =>
    new Promise<void>((resolve) => {
      server = createServer((client) => {
        const upstream = createConnection({ host: target.hostname, port: Number(target.port || 5432) });
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on('close', () => sockets.delete(s));
          s.on('error', () => {});
        }
        client.pipe(upstream).pipe(client);
        client.on('close', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
      });
      server.listen(port, '127.0.0.1', resolve);
    });
  await listen();
  const url = new URL(database.url);
  url.host = `127.0.0.1:${port}`;
  const down = async () => {
    await new Promise<void>((resolve) => {
      server?.close(() => resolve());
      for (const s of sockets) s.destroy();
    });
    server = undefined;
  };
  return {
    kind: 'proxy',
    url: url.toString(),
    down,
    up: listen,
    async remove() {
      if (server) await down();
      await database.drop();
    },
  };
}
