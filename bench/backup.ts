// The recovery drill's figures on a million-record history: the topology of deploy/ built
// on this machine by test/ha/cluster.ts (etcd, three PostgreSQL 15 nodes under Patroni in synchronous
// mode, HAProxy, WAL archived by pgBackRest), the service's schema migrated onto it and a year of
// one merchant's history seeded by bench/seed-list.ts (a million transactions, ledger-consistent).
//
// Measured, on a quiet cluster (nothing but the bench connected), each against a reference in the
// same run:
// - a full pgBackRest backup (zstd, two processes, as deploy/pgbackrest.conf): its time and size
//   (`pgbackrest info --output=json`), against `pg_basebackup` of the same cluster with the same
//   compression (zstd, a tar on the client), the two in turn in each round, the order reversed every
//   other round; the ratio is the median of the rounds' ratios;
// - then, as the recovery drill does (test/ha/recovery-drill.test.ts): two Bhuktani instances take
//   payments, refunds and payouts; at a time T the database's state is read; more payments after T;
//   the mistake (the ledger's postings dropped, every payment deleted); the whole cluster restored to
//   T by the documented procedure (Cluster.restoreToTime, docs/deploy.md), timed until HAProxy reaches
//   the restored primary with both replicas back; against pgBackRest's restore of the same full
//   backup into an empty directory, the files alone (no WAL replayed, no cluster): what a restore
//   cannot go below;
// - the records lost: for payments, payment events, transaction records, journals, postings and
//   payouts, every key present at T and missing after the restore (the goal: none), every key
//   present after it that was not there at T (none: the restore stops at T), and each table's
//   digest over its rows at T against after (equal). Then `bhuktani ledger verify`.
// Then the embedded store (embeddedBackupRun): `bhuktani backup` of a PGlite data directory holding
// the same history, against tar of it, and `bhuktani restore` against untar.
import { execFileSync } from 'node:child_process';
import { chownSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { canBuildCluster, Cluster, installPackages, sleep, waitFor } from '../test/ha/cluster.js';
import { startLoad, type LoadRecord } from '../test/reliability/load-driver.js';
import { createPglite } from '../src/db/pglite.js';
import { openPostgres } from '../src/db/postgres.js';
import { journalViolations, preparePostgres } from '../test/reliability/store.js';
import { runCli } from './processes.js';
import { seedList, type SeedSession } from './seed-list.js';
import { serviceEnv, settings } from './settings.js';

const PG_BIN = '/usr/lib/postgresql/15/bin';

/** What the drill compares: the money's own tables, each with its key. */
const TABLES = [
  ['payments', 'pidx'],
  ['payment_events', 'id'],
  ['transactions', 'id'],
  ['journals', 'id'],
  ['postings', 'id'],
  ['payouts', 'id'],
] as const;
type Table = (typeof TABLES)[number][0];

interface TableState {
  count: number;
  /** md5 over every row's md5 in key order. */
  digest: string;
  /** Every key, in key order (numbers for bigint ids, strings for pidx). */
  keys: (string | number)[];
}

export interface BackupTableResult {
  table: Table;
  atT: number;
  restored: number;
  /** Keys at T missing after the restore. */
  lost: number;
  /** Keys after the restore that were not there at T. */
  extra: number;
  equal: boolean;
}

export interface BackupResult {
  /** Transaction records seeded, and the seed's time on the cluster. */
  records: number;
  seedSeconds: number;
  /** Patroni's view of the cluster before the backup. */
  members: string;
  /** Every database of the cluster (what both backups copy). */
  clusterBytes: number;
  backup: {
    /** The median round's, and each round's. */
    seconds: number;
    rounds: number[];
    /** pgBackRest's figures for the full backup: the database's size, and what the repository holds of it. */
    databaseBytes: number;
    repositoryBytes: number;
    /** The WAL archive's size on disk after the backup (the seed's WAL included). */
    archiveBytes: number;
  };
  /** pg_basebackup, zstd on the client, tar: in each round beside the pgBackRest backup. */
  basebackup: { command: string; seconds: number; rounds: number[]; bytes: number };
  /** The median of the rounds' ratios, and each round's. */
  backupRatio: number;
  backupRatios: number[];
  /** pgBackRest's restore of the full backup into an empty directory: the files alone. */
  /** The median of the rounds', and each round's. */
  plainRestore: { command: string; seconds: number; rounds: number[] };
  restore: { target: string; seconds: number; phasesMs: Record<string, number> };
  restoreRatio: number;
  tables: BackupTableResult[];
  lost: number;
  extra: number;
  /** What the load did before T (after the backup) and after T. */
  beforeT: string;
  afterT: string;
  /** Payments initiated after T, none of which the restore keeps. */
  afterTPayments: number;
  ledger: { violations: number; ok: boolean; seconds: number };
  /** The embedded store's backup, measured after the cluster's (embeddedBackupRun), or why it could not be. */
  embedded?: EmbeddedBackupResult;
  embeddedError?: string;
}

/** T (UTC, as pgBackRest's --target takes it) and each table's count, digest and keys, read in one snapshot. */
async function readState(url: string): Promise<{ at: string; tables: Record<Table, TableState> }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
    const { rows: [{ at }] } = await client.query<{ at: string }>(`SELECT to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.US') || '+00' AS at`);
    const tables = {} as Record<Table, TableState>;
    for (const [table, key] of TABLES) {
      const { rows: [row] } = await client.query<{ count: number; digest: string | null; keys: string | null }>(
        `SELECT count(*)::int AS count, md5(string_agg(md5(t::text), '' ORDER BY t.${key})) AS digest, string_agg(t.${key}::text, ',' ORDER BY t.${key}) AS keys FROM ${table} t`,
      );
      const keys = row.keys ? row.keys.split(',') : [];
      tables[table] = { count: row.count, digest: row.digest ?? '', keys: key === 'id' ? keys.map(Number) : keys };
    }
    await client.query('COMMIT');
    return { at, tables };
  } finally {
    await client.end();
  }
}

/** Keys of `before` missing from `after`, and keys of `after` not in `before`; both sorted alike (numbers, or ASCII text in the C.UTF-8 collation). */
function difference(before: (string | number)[], after: (string | number)[]): { lost: number; extra: number } {
  let [i, j, lost, extra] = [0, 0, 0, 0];
  while (i < before.length || j < after.length) {
    if (j >= after.length || (i < before.length && before[i] < after[j])) {
      lost++;
      i++;
    } else if (i >= before.length || after[j] < before[i]) {
      extra++;
      j++;
    } else {
      i++;
      j++;
    }
  }
  return { lost, extra };
}

function bytesUnder(path: string): number {
  let total = 0;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    const full = join(path, entry.name);
    total += entry.isDirectory() ? bytesUnder(full) : entry.isFile() ? statSync(full).size : 0;
  }
  return total;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function timed(work: () => void): number {
  const started = performance.now();
  work();
  return (performance.now() - started) / 1000;
}

function describe(record: LoadRecord): string {
  return `${record.initiated.size} payments initiated, ${record.completed.size} paid, ${record.refunds.length} refunds, ${record.payouts.length} payouts`;
}

interface BackupInfo {
  type: string;
  info: { size: number; repository: { size: number; delta: number } };
}

export async function backupRun(log: (line: string) => void): Promise<BackupResult> {
  if (!canBuildCluster()) throw new Error('the backup scenario builds a cluster as root with PostgreSQL 15 installed');
  installPackages();
  const cluster = new Cluster();
  const postgresUser = () => {
    const line = execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim();
    return { uid: Number(line), gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim()) };
  };
  /** An empty directory of the postgres user's under the cluster's own (removed with it). */
  const scratch = (name: string) => {
    const dir = join(cluster.dir, name);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { mode: 0o700 });
    const { uid, gid } = postgresUser();
    chownSync(dir, uid, gid);
    return dir;
  };
  try {
    log('  building the cluster (etcd, Patroni ×3, HAProxy, pgBackRest)');
    await cluster.start();
    const shop = await preparePostgres(cluster.url, null, 'Bench Backup Shop');
    const seed = await seedList(shop.id, settings.listRows, log, cluster.url);
    log(`  seeded ${settings.listRows.toLocaleString('en')} records in ${seed.seconds.toFixed(0)} s`);

    // A quiet cluster for the measurements: the replicas have replayed the seed, the archive has every
    // segment of it (`check` switches to a new one and waits until it is archived), a checkpoint is done.
    await waitFor('both replicas replaying the seed', async () => ((await cluster.psql(cluster.primaryPort, 'SELECT count(*) FILTER (WHERE replay_lsn = pg_current_wal_lsn()) FROM pg_stat_replication', 'postgres')) === '2' ? true : undefined), 600_000, 1000);
    await waitFor('the archive holding the seed', async () => {
      cluster.pgbackrest(['check']);
      return true;
    }, 900_000, 1000);
    await cluster.psql(cluster.primaryPort, 'CHECKPOINT', 'postgres');
    const members = (await cluster.members()).map((m) => `${m.name} ${m.role} ${m.state}`).join(', ');
    const clusterBytes = Number(await cluster.psql(cluster.primaryPort, 'SELECT sum(pg_database_size(datname)) FROM pg_database', 'postgres'));
    log(`  cluster: ${members}; ${(clusterBytes / 2 ** 20).toFixed(0)} MiB of databases`);

    const primary = await cluster.primary();
    const basebackupArgs = ['-h', '127.0.0.1', '-p', String(primary.pgPort), '-U', 'postgres', '-Ft', '-Z', 'client-zstd', '-c', 'fast'];
    let basebackupBytes = 0;
    const basebackup = () => {
      const dir = scratch('basebackup');
      const { uid, gid } = postgresUser();
      const seconds = timed(() => execFileSync(join(PG_BIN, 'pg_basebackup'), [...basebackupArgs, '-D', dir], { uid, gid, cwd: cluster.dir, stdio: ['ignore', 'ignore', 'pipe'], timeout: 1_800_000 }));
      basebackupBytes = bytesUnder(dir);
      rmSync(dir, { recursive: true, force: true });
      log(`  pg_basebackup ${seconds.toFixed(1)} s, ${(basebackupBytes / 2 ** 20).toFixed(0)} MiB`);
      return seconds;
    };
    // In turn, the pgBackRest backup first in odd rounds and second in even ones, so that neither always follows the other.
    const [pgbackrestSeconds, referenceSeconds, ratios] = [[] as number[], [] as number[], [] as number[]];
    const pgbackrestBackup = () => {
      const seconds = timed(() => cluster.pgbackrest(['--type=full', 'backup'], 1_800_000));
      log(`  pgBackRest full backup ${seconds.toFixed(1)} s`);
      return seconds;
    };
    for (let round = 0; round < settings.rounds; round++) {
      const [first, second] = round % 2 === 0 ? [basebackup(), pgbackrestBackup()] : [pgbackrestBackup(), basebackup()];
      const [reference, backup] = round % 2 === 0 ? [first, second] : [second, first];
      referenceSeconds.push(reference);
      pgbackrestSeconds.push(backup);
      ratios.push(backup / reference);
    }
    const full = (JSON.parse(cluster.pgbackrest(['--output=json', 'info']).stdout) as { backup: BackupInfo[] }[])[0].backup.filter((b) => b.type === 'full').at(-1)!;
    const archiveBytes = bytesUnder(join(cluster.dir, 'pgbackrest', 'repo', 'archive'));
    log(`  the last full backup: ${(full.info.size / 2 ** 20).toFixed(0)} MiB of database, ${(full.info.repository.size / 2 ** 20).toFixed(0)} MiB in the repository; ratios ${ratios.map((r) => r.toFixed(2)).join(', ')}`);

    const plainRounds: number[] = [];
    for (let round = 0; round < settings.rounds; round++) {
      const plainDir = scratch('plain-restore');
      plainRounds.push(timed(() => cluster.pgbackrest([`--pg1-path=${plainDir}`, '--archive-mode=off', 'restore'], 1_800_000)));
      rmSync(plainDir, { recursive: true, force: true });
      log(`  pgBackRest restore of the full backup into an empty directory ${plainRounds.at(-1)!.toFixed(1)} s`);
    }
    const plainSeconds = median(plainRounds);

    // The drill (test/ha/recovery-drill.test.ts) on the seeded cluster.
    // The seed's payer wallets are live: an instance refuses the default OTP sender beside them (the bench's own instances use this one too).
    const env = { SETTLEMENT_HOLD_HOURS: '0', SANDBOX_BANK_INTERVAL_MS: '500', OTP_SENDER: serviceEnv.OTP_SENDER };
    const instances = await Promise.all([cluster.startBhuktani(env), cluster.startBhuktani(env)]).catch((error) => {
      throw new Error(`${(error as Error).message}\n${cluster.outputs().slice(-4000)}`);
    });
    let n = 0;
    const load = { base: () => instances[n++ % instances.length].base, key: shop.testKey, workers: 3, payoutShare: 0.3, timeoutMs: 15_000 };
    const before = startLoad(load);
    await sleep(5000);
    await before.stop();
    // Nothing commits around T: the load waits and the sandbox bank has nothing left to move.
    await waitFor('every payout Paid or Failed', async () => ((await cluster.psql(cluster.primaryPort, "SELECT count(*) FROM payouts WHERE state IN ('Requested', 'Processing')")) === '0' ? true : undefined), 60_000, 500);
    await sleep(1000);
    const atT = await readState(cluster.url);
    log(`  T ${atT.at}: ${TABLES.map(([t]) => `${atT.tables[t].count} ${t}`).join(', ')}`);
    await sleep(1000);
    const after = startLoad(load);
    await sleep(5000);
    await after.stop();
    if (before.record.completed.size === 0 || after.record.completed.size === 0) throw new Error(`the load paid nothing: before T ${describe(before.record)}; after T ${describe(after.record)}`);

    // The mistake: the ledger's lines dropped, every payment deleted (and, by CASCADE, what refers to them).
    await cluster.psql(cluster.primaryPort, 'DROP TABLE postings CASCADE');
    await cluster.psql(cluster.primaryPort, 'TRUNCATE payments CASCADE');
    cluster.pgbackrest(['check']);

    const restoreStarted = performance.now();
    const { phasesMs } = await cluster.restoreToTime(atT.at).catch((error) => {
      throw new Error(`${(error as Error).message}\n${cluster.outputs().slice(-6000)}`);
    });
    await waitFor('HAProxy to the restored primary', async () => ((await cluster.psql(cluster.primaryPort, 'SELECT pg_is_in_recovery()', 'postgres')) === 'f' ? true : undefined), 60_000, 200);
    const restoreSeconds = (performance.now() - restoreStarted) / 1000;
    log(`  restore to T ${restoreSeconds.toFixed(1)} s (${Object.entries(phasesMs).map(([name, ms]) => `${name} ${(ms / 1000).toFixed(1)} s`).join(', ')})`);

    const restored = await readState(cluster.url);
    const tables = TABLES.map(([table]): BackupTableResult => {
      const [t, r] = [atT.tables[table], restored.tables[table]];
      return { table, atT: t.count, restored: r.count, ...difference(t.keys, r.keys), equal: t.digest === r.digest };
    });
    const lost = tables.reduce((sum, t) => sum + t.lost, 0);
    const extra = tables.reduce((sum, t) => sum + t.extra, 0);
    log(`  records at T lost: ${lost}; records after T kept: ${extra}; tables equal: ${tables.filter((t) => t.equal).length}/${tables.length}`);

    // The books, checked as the drill checks them (test/reliability/store.ts's ledgerChecks, whose CLI runs under vitest): the journals' own rules, then `bhuktani ledger verify` as a process.
    const verifyStarted = performance.now();
    const db = openPostgres(cluster.url, { max: 1 });
    const violations = await journalViolations(db).finally(() => db.close());
    const cli = await runCli(['ledger', 'verify', '--json'], { DATABASE_URL: cluster.url, LOG_LEVEL: 'warn' });
    let verified = { ok: false };
    try {
      verified = { ok: cli.code === 0 && (JSON.parse(cli.stdout.trim().split('\n').at(-1)!) as { ok?: boolean }).ok === true };
    } catch {
      log(`  ledger verify answered no report (exit ${cli.code}): ${cli.stderr.slice(-1000)}`);
    }
    const verifySeconds = (performance.now() - verifyStarted) / 1000;
    log(`  ledger after the restore: ${violations.length} journal violations, ledger verify ${verified.ok ? 'holds' : 'FAILS'} (${verifySeconds.toFixed(0)} s)`);

    const pidxAtT = new Set(atT.tables.payments.keys as string[]);
    return {
      records: settings.listRows,
      seedSeconds: seed.seconds,
      members,
      clusterBytes,
      backup: { seconds: median(pgbackrestSeconds), rounds: pgbackrestSeconds, databaseBytes: full.info.size, repositoryBytes: full.info.repository.size, archiveBytes },
      basebackup: { command: 'pg_basebackup -Ft -Z client-zstd -c fast -D DIR', seconds: median(referenceSeconds), rounds: referenceSeconds, bytes: basebackupBytes },
      backupRatio: median(ratios),
      backupRatios: ratios,
      plainRestore: { command: 'pgbackrest --stanza=bhuktani --pg1-path=EMPTY_DIR --archive-mode=off restore', seconds: plainSeconds, rounds: plainRounds },
      restore: { target: atT.at, seconds: restoreSeconds, phasesMs },
      restoreRatio: restoreSeconds / plainSeconds,
      tables,
      lost,
      extra,
      beforeT: describe(before.record),
      afterT: describe(after.record),
      afterTPayments: [...after.record.initiated.keys()].filter((pidx) => !pidxAtT.has(pidx)).length,
      ledger: { violations: violations.length, ok: verified.ok, seconds: verifySeconds },
    };
  } finally {
    await cluster.stop();
  }
}

export interface EmbeddedBackupResult {
  records: number;
  seedSeconds: number;
  /** The data directory's size on disk. */
  dataDirBytes: number;
  backup: { command: string; seconds: number; bytes: number };
  /** tar with gzip of the same directory (the backup file's copy is a gzipped tar too), before and after the backup. */
  tar: { command: string; seconds: number[]; bytes: number };
  backupRatio: number;
  restore: { command: string; seconds: number };
  untar: { command: string; seconds: number };
  restoreRatio: number;
  /** Each table's count and row digest in the restored store against the seeded one. */
  tables: { table: Table; rows: number; equal: boolean }[];
}

/** Count and digest of each of TABLES in an embedded store. */
async function embeddedDigests(storeDir: string): Promise<Record<Table, { count: number; digest: string }>> {
  const pg = await createPglite({ dataDir: storeDir });
  try {
    const out = {} as Record<Table, { count: number; digest: string }>;
    for (const [table, key] of TABLES) {
      const { rows: [row] } = await pg.query<{ count: number; digest: string | null }>(`SELECT count(*)::int AS count, md5(string_agg(md5(t::text), '' ORDER BY t.${key})) AS digest FROM ${table} t`);
      out[table] = { count: row.count, digest: row.digest ?? '' };
    }
    return out;
  } finally {
    await pg.close();
  }
}

/**
 * The embedded store's backup: a data directory made by `bhuktani merchant create`
 * and seeded with seed-list.ts's history through PGlite itself; `bhuktani backup --out FILE` of the
 * stopped store, against `tar -czf` of the same directory (the backup's copy is a gzipped tar too),
 * once before it and once after; `bhuktani restore FILE` into an empty DATA_DIR against `tar -xzf`
 * of the reference's tar into an empty directory; the restored store's tables against the seeded one's.
 */
export async function embeddedBackupRun(log: (line: string) => void, rows = settings.listRows): Promise<EmbeddedBackupResult> {
  const dir = mkdtempSync(join(tmpdir(), 'bhuktani-bench-backup-'));
  try {
    const dataDir = join(dir, 'data');
    const created = await runCli(['merchant', 'create', '--name', 'Bench Embedded Shop', '--email', 'embedded-backup@example.com', '--password', 'bench-password-1', '--json'], { DATA_DIR: dataDir, LOG_LEVEL: 'warn' });
    if (created.code !== 0) throw new Error(`merchant create failed (${created.code}): ${created.stderr}`);
    const { idx } = JSON.parse(created.stdout.trim().split('\n').at(-1)!) as { idx: string };
    const storeDir = join(dataDir, 'pglite');
    const pg = await createPglite({ dataDir: storeDir });
    let seedSeconds: number;
    try {
      const [{ id }] = (await pg.query<{ id: number }>('SELECT id FROM merchants WHERE idx = $1', [idx])).rows;
      const session: SeedSession = {
        query: async <R>(sql: string, params?: unknown[]) => {
          const result = await pg.query<R>(sql, params);
          return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
        },
      };
      seedSeconds = (await seedList(Number(id), rows, log, session)).seconds;
      await pg.exec('CHECKPOINT');
    } finally {
      await pg.close();
    }
    const seeded = await embeddedDigests(storeDir);
    const dataDirBytes = bytesUnder(dataDir);
    log(`  embedded store: ${rows.toLocaleString('en')} records seeded in ${seedSeconds.toFixed(0)} s, ${(dataDirBytes / 2 ** 20).toFixed(0)} MiB on disk`);

    const tarFile = join(dir, 'reference.tar.gz');
    const tar = () => {
      rmSync(tarFile, { force: true });
      const seconds = timed(() => execFileSync('tar', ['-czf', tarFile, '-C', dataDir, 'pglite'], { stdio: ['ignore', 'ignore', 'pipe'] }));
      log(`  tar -czf ${seconds.toFixed(1)} s, ${(statSync(tarFile).size / 2 ** 20).toFixed(0)} MiB`);
      return seconds;
    };
    const tarBefore = tar();
    const backupFile = join(dir, 'store.backup');
    let backupSeconds = 0;
    const backedUp = await (async () => {
      const started = performance.now();
      const out = await runCli(['backup', '--out', backupFile], { DATA_DIR: dataDir, LOG_LEVEL: 'warn' });
      backupSeconds = (performance.now() - started) / 1000;
      return out;
    })();
    if (backedUp.code !== 0) throw new Error(`bhuktani backup failed (${backedUp.code}): ${backedUp.stderr}`);
    log(`  bhuktani backup ${backupSeconds.toFixed(1)} s, ${(statSync(backupFile).size / 2 ** 20).toFixed(0)} MiB`);
    const tarAfter = tar();
    const tarBytes = statSync(tarFile).size;

    const untarDir = join(dir, 'untar');
    mkdirSync(untarDir);
    const untarSeconds = timed(() => execFileSync('tar', ['-xzf', tarFile, '-C', untarDir], { stdio: ['ignore', 'ignore', 'pipe'] }));
    rmSync(untarDir, { recursive: true, force: true });
    const restoredDir = join(dir, 'restored');
    const restoreStarted = performance.now();
    const restored = await runCli(['restore', backupFile], { DATA_DIR: restoredDir, LOG_LEVEL: 'warn' });
    const restoreSeconds = (performance.now() - restoreStarted) / 1000;
    if (restored.code !== 0) throw new Error(`bhuktani restore failed (${restored.code}): ${restored.stderr}`);
    log(`  bhuktani restore ${restoreSeconds.toFixed(1)} s; tar -xzf ${untarSeconds.toFixed(1)} s`);
    const after = await embeddedDigests(join(restoredDir, 'pglite'));
    const tables = TABLES.map(([table]) => ({ table, rows: seeded[table].count, equal: seeded[table].count === after[table].count && seeded[table].digest === after[table].digest }));
    log(`  restored store's tables equal to the seeded one's: ${tables.filter((t) => t.equal).length}/${tables.length}`);
    return {
      records: rows,
      seedSeconds,
      dataDirBytes,
      backup: { command: 'bhuktani backup --out FILE', seconds: backupSeconds, bytes: statSync(backupFile).size },
      tar: { command: 'tar -czf FILE -C DATA_DIR pglite', seconds: [tarBefore, tarAfter], bytes: tarBytes },
      backupRatio: backupSeconds / ((tarBefore + tarAfter) / 2),
      restore: { command: 'bhuktani restore FILE', seconds: restoreSeconds },
      untar: { command: 'tar -xzf FILE -C EMPTY_DIR', seconds: untarSeconds },
      restoreRatio: restoreSeconds / untarSeconds,
      tables,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
