// What one `npm run bench` does: durations, sizes and the databases it owns. BENCH_QUICK=1 shrinks
// everything (short runs, 50k list rows) for developing the harness; its figures mean nothing.
// BENCH_ONLY=ha: the completion scenario on a synchronous Patroni cluster built for the run (bench/ha.ts).
// BENCH_ONLY=backup: pgBackRest's backup and a restore to a point in time of a million-record history
// on such a cluster (bench/backup.ts); run only when named, and its section merged into docs/benchmarks.md.
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));

const quick = process.env.BENCH_QUICK === '1';
const scenarios = ['lookup', 'initiate', 'esewa', 'new-store', 'completion', 'provider', 'list', 'export', 'embedded', 'ha', 'backup', 'payouts'] as const;
/** Scenarios a full run leaves out: they run only when BENCH_ONLY names them (the backup drill builds and seeds a cluster of its own, minutes more than the full run's budget). */
const onRequest: readonly Scenario[] = ['backup', 'payouts'];
export type Scenario = (typeof scenarios)[number];
const only = process.env.BENCH_ONLY?.split(',').map((s) => s.trim()).filter(Boolean);
const unknown = only?.filter((s) => !(scenarios as readonly string[]).includes(s));
if (unknown?.length) throw new Error(`BENCH_ONLY: unknown scenario ${unknown.join(', ')} (known: ${scenarios.join(', ')})`);

export const settings = {
  quick,
  /** Scenarios to run (BENCH_ONLY); all when unset. A partial run's report goes to a temporary file. */
  only: only as Scenario[] | undefined,
  /** Seconds of load before each measured run, not counted. */
  warmupSeconds: quick ? 1 : 2,
  /** Seconds of each measured autocannon run: the rounds of the 2026-11-26 run spread ±5–8% at 10 s, the machine's drift between runs, not the count of requests (tens of thousands a run). */
  durationSeconds: quick ? 3 : 6,
  /** Each scenario and its reference run alternately this many times; the median run is reported. */
  rounds: quick ? 1 : 3,
  connections: 50,
  /** Seconds of each pgbench round (one before each completion round). */
  pgbenchSeconds: quick ? 5 : 8,
  payers: 32,
  /** Payments prepared per payer for the completion run: the first few of each warm up, the rest is shared between the rounds. */
  paymentsPerPayer: quick ? 12 : 160,
  warmupPaymentsPerPayer: quick ? 2 : 10,
  /** Further payments per payer confirmed on a profiled instance after the measured window. */
  profilePaymentsPerPayer: quick ? 3 : 20,
  /** Seconds a measured completion window may last at most. */
  completionSeconds: quick ? 5 : 15,
  listRows: quick ? 50_000 : 1_000_000,
  /** Newest-first pages of 20: page 25,000 of 50,000 is the middle of the history. */
  listDeepPage: quick ? 1_250 : 25_000,
  listSamples: quick ? 30 : 200,
  /** A variant stops early after this many seconds of requests (an OFFSET scan can be slow). */
  listSecondsCap: quick ? 10 : 30,
  embeddedStarts: quick ? 3 : 5,
  /** Profiles and statement logs for the notes (short extra runs, not measured). */
  evidence: process.env.BENCH_EVIDENCE !== '0',
};

/** PostgreSQL the harness administers: its own databases on the local server, as the superuser. */
export const pg = {
  host: process.env.BENCH_PG_HOST || '127.0.0.1',
  port: Number(process.env.BENCH_PG_PORT || 5432),
  user: process.env.BENCH_PG_USER || 'postgres',
  /** The service's database: lookups, initiates, the completion run, the million-row list. */
  serviceDb: 'bhuktani_bench',
  /** The reference server's small table. */
  referenceDb: 'bhuktani_bench_ref',
  pgbenchDb: 'bhuktani_bench_pgbench',
  /** A new store, for lookups before and after a burst of initiates (bench/new-store.ts). */
  newStoreDb: 'bhuktani_bench_new_store',
};

export const databaseUrl = (db: string) => `postgres://${pg.user}@${pg.host}:${pg.port}/${db}`;

/** The service's limits are raised so that they never bound a figure. */
export const serviceEnv = {
  LOG_LEVEL: 'warn',
  RATE_LIMIT_LIVE: '100000000',
  RATE_LIMIT_TEST: '100000000',
  PAYER_ATTEMPTS_PER_MINUTE: '100000000',
  PAYMENT_TTL_SECONDS: '86400',
  // The completion run reads the live OTPs from the log (bench/completion.ts), as a developer would.
  OTP_SENDER: 'log-insecure',
  METRICS_TOKEN: 'bench-metrics-token-not-secret',
};

export const runs = (scenario: Scenario) => (settings.only ? settings.only.includes(scenario) : !onRequest.includes(scenario));
