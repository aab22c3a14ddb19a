// The local PostgreSQL: started if it is down, its databases made fresh for each run, pgbench found
// (or installed), and what its sessions wait on while a scenario runs.
import { existsSync, readdirSync } from 'node:fs';
import pg from 'pg';
import { run } from './processes.js';
import { databaseUrl, pg as pgSettings } from './settings.js';

async function ready(): Promise<boolean> {
  const client = new pg.Client({ connectionString: databaseUrl('postgres'), connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/** Starts the Debian cluster when nothing answers; returns what was done. */
export async function ensurePostgres(log: (line: string) => void): Promise<string> {
  if (await ready()) return 'already running';
  const versions = existsSync('/etc/postgresql') ? readdirSync('/etc/postgresql') : [];
  if (versions.length === 0) throw new Error('PostgreSQL is not running and no Debian cluster is configured in /etc/postgresql (apt-get install postgresql)');
  const version = versions.sort().at(-1)!;
  log(`starting PostgreSQL ${version}/main`);
  const started = await run('pg_ctlcluster', ['--skip-systemctl-redirect', version, 'main', 'start']);
  if (started.code !== 0) throw new Error(`pg_ctlcluster failed: ${started.stderr}`);
  for (let i = 0; i < 60; i++) {
    if (await ready()) return `started ${version}/main`;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('PostgreSQL did not accept connections 30 s after start');
}

/** The pgbench executable, installing Debian's postgresql-client when it is missing. */
export async function ensurePgbench(log: (line: string) => void): Promise<string | undefined> {
  const found = await run('sh', ['-c', 'command -v pgbench']);
  if (found.code === 0) return found.stdout.trim();
  log('pgbench is missing: apt-get install -y postgresql-client');
  const installed = await run('sh', ['-c', 'apt-get install -y postgresql-client || (apt-get update && apt-get install -y postgresql-client)'], {
    env: { DEBIAN_FRONTEND: 'noninteractive' },
  });
  if (installed.code !== 0) log(`could not install pgbench: ${installed.stderr.slice(-500)}`);
  const again = await run('sh', ['-c', 'command -v pgbench']);
  return again.code === 0 ? again.stdout.trim() : undefined;
}

export async function admin<T>(work: (client: pg.Client) => Promise<T>, db = 'postgres'): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl(db) });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Drops (closing its sessions) and creates a database the harness owns. */
export async function recreateDatabase(name: string): Promise<void> {
  if (!/^bhuktani_bench\w*$/.test(name)) throw new Error(`refusing to drop ${name}: not a bench database`);
  await admin(async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${name}`);
  });
}

/**
 * ANALYZE, as autovacuum does on its own within a minute or so of a table's first rows: without
 * statistics a fresh table's plans are not the ones a running installation gets.
 */
export async function analyze(database: string): Promise<void> {
  await admin((client) => client.query('ANALYZE'), database);
}

export async function postgresInfo(): Promise<{ version: string; settings: Record<string, string> }> {
  return admin(async (client) => {
    const { rows } = await client.query<{ version: string }>('SELECT version()');
    const names = ['shared_buffers', 'max_connections', 'synchronous_commit', 'fsync', 'wal_level', 'work_mem'];
    const settings: Record<string, string> = {};
    for (const name of names) settings[name] = (await client.query(`SHOW ${name}`)).rows[0][name];
    return { version: rows[0].version, settings };
  });
}

export interface WaitProfile {
  samples: number;
  /** Per sample, on average: sessions of the database by what they were doing. */
  average: Record<string, number>;
  /** Lock requests not granted, by lock type, summed over the samples. */
  ungrantedLocks: Record<string, number>;
}

/**
 * Samples pg_stat_activity and pg_locks for one database every `everyMs`: how many sessions were
 * running on CPU, waiting on a lock (and which), on I/O, or idle in the client's hands.
 */
export function waitSampler(database: string, everyMs = 50): { stop(): Promise<WaitProfile>; backendPids(): number[] } {
  // Connected to the database itself, so relation oids resolve to names.
  const client = new pg.Client({ connectionString: databaseUrl(database), application_name: 'bench-wait-sampler' });
  const counts: Record<string, number> = {};
  const locks: Record<string, number> = {};
  let samples = 0;
  let stopped = false;
  let backendPid: number | undefined;
  const loop = (async () => {
    await client.connect();
    backendPid = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid;
    while (!stopped) {
      const activity = await client.query<{ what: string; n: number }>(
        `SELECT CASE
                  WHEN state = 'active' AND wait_event IS NULL THEN 'active: on CPU'
                  WHEN state = 'active' THEN 'active: waiting ' || wait_event_type || ':' || wait_event
                  WHEN wait_event IS NOT NULL AND state LIKE 'idle%' THEN state || ' (' || wait_event_type || ':' || wait_event || ')'
                  ELSE coalesce(state, 'unknown') END AS what, count(*)::int AS n
           FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid() AND backend_type = 'client backend'
          GROUP BY 1`,
        [database],
      );
      for (const row of activity.rows) counts[row.what] = (counts[row.what] ?? 0) + row.n;
      const waiting = await client.query<{ locktype: string; relation: string | null; n: number }>(
        `SELECT l.locktype, l.relation::regclass::text AS relation, count(*)::int AS n
           FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
          WHERE NOT l.granted AND a.datname = $1 GROUP BY 1, 2`,
        [database],
      );
      for (const row of waiting.rows) {
        const key = row.relation ? `${row.locktype} on ${row.relation}` : row.locktype;
        locks[key] = (locks[key] ?? 0) + row.n;
      }
      samples++;
      await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  return {
    /** The sampler's own session, to leave out of the database's CPU figures. */
    backendPids: () => (backendPid ? [backendPid] : []),
    async stop() {
      stopped = true;
      await loop.catch(() => {});
      await client.end().catch(() => {});
      const average: Record<string, number> = {};
      for (const [what, n] of Object.entries(counts).sort((a, b) => b[1] - a[1])) average[what] = n / Math.max(1, samples);
      return { samples, average, ungrantedLocks: locks };
    },
  };
}

/** Where the server writes its log (Debian: stderr to /var/log/postgresql), if the harness may read it. */
export function postgresLogFile(): string | undefined {
  const dir = '/var/log/postgresql';
  if (!existsSync(dir)) return undefined;
  const logs = readdirSync(dir).filter((f) => /^postgresql-[\d.]+-main\.log$/.test(f));
  return logs.length ? `${dir}/${logs.sort().at(-1)}` : undefined;
}

export { pgSettings };
