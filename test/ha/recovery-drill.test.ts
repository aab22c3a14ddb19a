// The recovery drill: a mistake that replicates, undone from pgBackRest's backup and WAL
// archive on the topology of deploy/ (cluster.ts). Two Bhuktani instances take payments, refunds and
// payouts; a full backup is taken under that load; the load goes on; at a time T the database's own
// state is read; the load goes on after T; then an operator drops the ledger's postings and deletes
// every payment, and both reach every replica at once. The cluster is restored to T
// (Cluster.restoreToTime, the procedure of docs/deploy.md). Afterwards every payment, payment event,
// journal, posting and payout committed before T is there and equal, nothing committed after T is,
// `bhuktani ledger verify` holds, and the cluster takes payments again. The backup's size and time
// and the restore's time are printed, not asserted (no test bounds the wall clock).
//
// T is read while the load waits for a second, and once the sandbox bank has settled every payout:
// a commit's WAL record is stamped a moment before other sessions see it (the synchronous standby
// is waited for in between), so under full load the rows a session reads at T and the commits
// recovery replays up to T may differ by the few in that window. In the fast round: two to three
// minutes with the cluster's start.
import { execFileSync } from 'node:child_process';
import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtFromSources } from '../../src/build/built-from-sources.js';
import { callbackOf, merchantApi, payOnPortal, SANDBOX_WALLETS } from '../reliability/http-client.js';
import { startLoad, type LoadRecord } from '../reliability/load-driver.js';
import { ledgerChecks, ledgerVerify, preparePostgres, type ShopMerchant } from '../reliability/store.js';
import { canBuildCluster, Cluster, installPackages, sleep, waitFor } from './cluster.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** What the drill compares: the money's own tables. */
const TABLES = ['payments', 'payment_events', 'journals', 'postings', 'payouts'] as const;
type Rows = Record<(typeof TABLES)[number], string[]>;

/** T (UTC, as pgBackRest's --target takes it) and every row of TABLES as JSON, read in one snapshot. */
async function readState(url: string): Promise<{ at: string; rows: Rows }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
    const { rows: [{ at }] } = await client.query<{ at: string }>(`SELECT to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.US') || '+00' AS at`);
    const rows = {} as Rows;
    for (const table of TABLES) {
      rows[table] = (await client.query<{ row: string }>(`SELECT row_to_json(t)::text AS row FROM ${table} t ORDER BY 1`)).rows.map((r) => r.row);
    }
    await client.query('COMMIT');
    return { at, rows };
  } finally {
    await client.end();
  }
}

interface BackupInfo {
  type: string;
  timestamp: { start: number; stop: number };
  info: { size: number; repository: { delta: number } };
}

/** A timestamp as pgBackRest's --target takes it (UTC). */
function targetOf(date: Date): string {
  return `${date.toISOString().replace('T', ' ').replace('Z', '')}+00`;
}

function count(record: LoadRecord) {
  return `${record.initiated.size} initiated, ${record.completed.size} paid, ${record.refunds.length} refunds, ${record.payouts.length} payouts`;
}

const METRICS_TOKEN = 'drill-metrics-token-0123456789';

/** An instance's `bhuktani_wal_archive_failing` (1 failing, 0 archiving, -1 off). */
async function archiveFailing(base: string): Promise<number | undefined> {
  const answer = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  const value = /^bhuktani_wal_archive_failing (-?\d+)$/m.exec(await answer.text())?.[1];
  return value === undefined ? undefined : Number(value);
}

describe.skipIf(!canBuildCluster())('recovering from a mistake (pgBackRest, point in time, under Patroni)', () => {
  const cluster = new Cluster();
  let instances: { base: string; output(): string }[] = [];
  let shop: ShopMerchant;
  let n = 0;
  let atT: Awaited<ReturnType<typeof readState>> | undefined;
  const backups = () => (JSON.parse(cluster.pgbackrest(['--output=json', 'info']).stdout) as { backup: BackupInfo[] }[])[0].backup;
  const base = () => instances[n++ % instances.length].base;

  beforeAll(async () => {
    installPackages();
    if (!builtFromSources(ROOT)) execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'ignore' });
    await cluster.start();
    shop = await preparePostgres(cluster.url, null, 'Drill Shop');
    // No settlement hold: a payment's money is available at once, so the load's payouts are taken.
    const env = { SETTLEMENT_HOLD_HOURS: '0', SANDBOX_BANK_INTERVAL_MS: '500', METRICS_TOKEN };
    instances = [await cluster.startBhuktani(env), await cluster.startBhuktani(env)];
  }, 600_000);

  afterAll(async () => {
    await cluster.stop();
  }, 180_000);

  it('restores the whole cluster to a time before a dropped table and deleted payments, and loses nothing before it', async () => {
    const load = { base, key: shop.testKey, workers: 3, payoutShare: 0.3, timeoutMs: 15_000 };
    const before = startLoad(load);
    await sleep(3000);
    const backupStarted = Date.now();
    cluster.pgbackrest(['--type=full', 'backup']);
    const backupMs = Date.now() - backupStarted;
    await sleep(3000);
    await before.stop();

    // Nothing commits around T: the load waits and the sandbox bank has nothing left to move.
    await waitFor('every payout Paid or Failed', async () => ((await cluster.psql(cluster.primaryPort, "SELECT count(*) FROM payouts WHERE state IN ('Requested', 'Processing')")) === '0' ? true : undefined), 60_000, 500);
    await sleep(1000);
    atT = await readState(cluster.url);
    await sleep(1000);
    const after = startLoad(load);
    await sleep(3000);
    await after.stop();
    expect(before.record.completed.size).toBeGreaterThan(0);
    expect(after.record.completed.size).toBeGreaterThan(0);
    expect(atT.rows.payouts.length).toBeGreaterThan(0);

    // The mistake: the ledger's lines dropped, every payment deleted (and, by CASCADE, what refers to them).
    await cluster.psql(cluster.primaryPort, 'DROP TABLE postings CASCADE');
    await cluster.psql(cluster.primaryPort, 'TRUNCATE payments CASCADE');
    expect(await cluster.psql(cluster.primaryPort, "SELECT to_regclass('postings') IS NULL AND NOT EXISTS (SELECT FROM payments)")).toBe('t');
    // `check` switches to a new WAL segment and waits until the archive has the last one: every commit up to the mistake.
    cluster.pgbackrest(['check']);

    const restoreStarted = Date.now();
    const { phasesMs } = await cluster.restoreToTime(atT.at).catch((error) => {
      throw new Error(`${(error as Error).message}\n${cluster.outputs()}`);
    });
    await waitFor('HAProxy to the restored primary', async () => ((await cluster.psql(cluster.primaryPort, 'SELECT pg_is_in_recovery()', 'postgres')) === 'f' ? true : undefined), 60_000, 500);
    const restoreMs = Date.now() - restoreStarted;

    const restored = await readState(cluster.url);
    const pidxOf = (row: string) => (JSON.parse(row) as { pidx: string }).pidx;
    const restoredPidx = new Set(restored.rows.payments.map(pidxOf));
    const lost = atT.rows.payments.map(pidxOf).filter((pidx) => !restoredPidx.has(pidx));
    const atTPidx = new Set(atT.rows.payments.map(pidxOf));
    const afterT = [...after.record.initiated.keys()].filter((pidx) => !atTPidx.has(pidx));
    expect(afterT.length).toBeGreaterThan(0);
    expect(lost).toEqual([]);
    expect(afterT.filter((pidx) => restoredPidx.has(pidx))).toEqual([]);
    for (const table of TABLES) expect(restored.rows[table], table).toEqual(atT.rows[table]);

    const { violations, verified } = await ledgerChecks(cluster.url);
    expect(violations).toEqual([]);
    expect(verified.ok, verified.report).toBe(true);

    // The instances reconnect by themselves and take a payment, through the hosted page, again.
    const api = merchantApi(shop.testKey, 15_000);
    const pidx = await waitFor('an initiate on the restored cluster', async () => {
      const answer = await api.initiate(instances[0].base, { amount: 1000 });
      return answer.status === 200 ? answer.body.pidx : undefined;
    }, 60_000, 500);
    const paid = await payOnPortal(() => instances[1].base, pidx, SANDBOX_WALLETS[0], 15_000);
    expect(callbackOf(paid)?.status).toBe('Completed');
    expect((await api.lookup(instances[0].base, pidx)).body.status).toBe('Completed');

    const full = backups().find((b) => b.type === 'full')!;
    console.log(
      `recovery drill: before T ${count(before.record)}; after T ${count(after.record)}; ` +
        `full backup under load ${backupMs} ms, ${(full.info.size / 1048576).toFixed(1)} MiB of database, ${(full.info.repository.delta / 1048576).toFixed(1)} MiB in the repository; ` +
        `restore to T ${restoreMs} ms (${Object.entries(phasesMs).map(([name, ms]) => `${name} ${ms}`).join(', ')}); payments committed before T lost: ${lost.length} of ${atT.rows.payments.length}`,
    );
  }, 600_000);

  it('restores beside the cluster to copy back a dropped table, and refuses a time before the oldest backup or after the last archived WAL', async () => {
    expect(atT, 'the drill ran').toBeDefined();
    // A second mistake, on the restored cluster: the ledger's postings dropped again.
    const before = await readState(cluster.url);
    await sleep(1000);
    await cluster.psql(cluster.primaryPort, 'DROP TABLE postings CASCADE');
    cluster.pgbackrest(['check']);

    const copy = await cluster.restoreBeside(before.at);
    try {
      expect(copy.refused).toBeUndefined();
      const beside = `postgres://postgres@127.0.0.1:${copy.port}/bhuktani`;
      expect((await readState(beside)).rows).toEqual(before.rows);
      // Copied back as docs/deploy.md says: the table's definition and rows from the copy, into the cluster.
      const dump = execFileSync('/usr/lib/postgresql/15/bin/pg_dump', ['-d', beside, '-t', 'postings'], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
      execFileSync('/usr/lib/postgresql/15/bin/psql', ['-d', cluster.url, '-v', 'ON_ERROR_STOP=1', '-q'], { input: dump, stdio: ['pipe', 'ignore', 'pipe'] });
    } finally {
      await copy.stop();
    }
    expect((await readState(cluster.url)).rows).toEqual(before.rows);
    const verified = await ledgerVerify({ DATABASE_URL: cluster.url });
    expect(verified.ok, verified.report).toBe(true);

    // Bad input: a time before the oldest backup (pgBackRest refuses), and one after the last archived WAL (PostgreSQL does).
    const oldest = Math.min(...backups().map((b) => b.timestamp.start));
    const tooEarly = targetOf(new Date((oldest - 3600) * 1000));
    const early = await cluster.restoreBeside(tooEarly).then(
      async (copied) => {
        await copied.stop();
        return `restored: ${copied.refused ?? 'recovered'}`;
      },
      (error: Error) => error.message,
    );
    console.log(`a target before the oldest backup (${tooEarly}):\n${early}`);
    expect(early).toMatch(/ERROR: \[075\]: unable to find backup set with stop time less than/);
    const tooLate = targetOf(new Date(Date.now() + 3600_000));
    const late = await cluster.restoreBeside(tooLate);
    await late.stop();
    console.log(`a target after the last archived WAL (${tooLate}):\n${late.refused}\nwhat can be restored (pgbackrest info):\n${cluster.pgbackrest(['info']).stdout}`);
    expect(late.refused).toMatch(/FATAL: +recovery ended before configured recovery target was reached/);
  }, 600_000);

  it('keeps serving while the archive cannot be written, and says so in /metrics until it can again', async () => {
    await waitFor('the archive archiving', async () => ((await archiveFailing(instances[0].base)) === 0 ? true : undefined), 120_000, 1000);
    const archive = join(cluster.dir, 'pgbackrest', 'repo', 'archive');
    chmodSync(archive, 0o000);
    try {
      // A segment to archive: the archiver cannot hand it over, and says so in pg_stat_archiver.
      await cluster.psql(cluster.primaryPort, 'SELECT pg_switch_wal()', 'bhuktani');
      await waitFor('the archive failing in /metrics', async () => ((await archiveFailing(instances[0].base)) === 1 ? true : undefined), 120_000, 500);
      // The cluster serves on: a payment is taken while the archive fails.
      const api = merchantApi(shop.testKey, 15_000);
      const { body } = await api.initiate(instances[0].base, { amount: 1000 });
      expect(callbackOf(await payOnPortal(() => instances[1].base, body.pidx, SANDBOX_WALLETS[0], 15_000))?.status).toBe('Completed');
      expect(await archiveFailing(instances[1].base)).toBe(1);
    } finally {
      chmodSync(archive, 0o750);
    }
    // Once it can be written, the archiver catches up (it tries again within a minute) and the gauge says so.
    await cluster.psql(cluster.primaryPort, 'SELECT pg_switch_wal()', 'bhuktani');
    await waitFor('the archive archiving again', async () => ((await archiveFailing(instances[0].base)) === 0 ? true : undefined), 180_000, 1000);
    expect(await archiveFailing(instances[1].base)).toBe(0);
  }, 600_000);
});
