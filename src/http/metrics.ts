// Prometheus metrics: one registry per app (tests run several), exposed at /metrics only to whom
// the operator chose (metrics-routes.ts: METRICS_PORT's listener, or METRICS_TOKEN's bearer).
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Db } from '../db/db.js';
import { walArchiving } from '../db/wal-archiving-store.js';

export interface Metrics {
  registry: Registry;
  webhookDeliveries: Counter<'result'>;
  otpSends: Counter<'result'>;
  /** Calls to upstream providers: start, status, refund; ok or failed. */
  providerCalls: Counter<'provider' | 'environment' | 'operation' | 'result'>;
  providerLatency: Histogram<'provider' | 'operation'>;
  /** Settled provider attempts by outcome (Paid, Surplus, Failed, Unknown, Escalated). */
  providerOutcomes: Counter<'provider' | 'environment' | 'outcome'>;
}

/** Status counts are a query; a scrape reuses one for this long. */
const STATUS_CACHE_MS = 10_000;

/**
 * The process's own metrics (memory, CPU, the event loop, GC), once per process whatever the apps in
 * it: prom-client never stops collecting them, so default metrics in each app's registry would keep
 * every app's registry alive for good (the fault simulator starts thousands of apps in one process).
 */
let processRegistry: Registry | undefined;

function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry, prefix: 'bhuktani_' });
  }
  return processRegistry;
}

/**
 * A gauge of counts by labels, read from the store at most once per STATUS_CACHE_MS whatever the
 * scrapes; `zeros`: label sets said as 0 when the store has no row for them.
 */
function storeCountGauge<L extends string>(registry: Registry, db: Db, options: { name: string; help: string; labelNames: readonly L[]; sql: string; zeros?: Record<L, string>[] }): void {
  let cached: { at: number; rows: (Record<L, string> & { count: number })[] } | undefined;
  new Gauge({
    name: options.name,
    help: options.help,
    labelNames: [...options.labelNames],
    registers: [registry],
    async collect() {
      if (!cached || Date.now() - cached.at > STATUS_CACHE_MS) cached = { at: Date.now(), rows: await db.query<Record<L, string> & { count: number }>(options.sql) };
      this.reset();
      for (const labels of options.zeros ?? []) this.set(labels, 0);
      for (const row of cached.rows) this.set(Object.fromEntries(options.labelNames.map((l) => [l, String(row[l])])) as Record<L, string>, Number(row.count));
    },
  });
}

export function createMetrics(db: Db): Metrics {
  const registry = Registry.merge([processMetrics()]);
  storeCountGauge(registry, db, {
    name: 'bhuktani_payments',
    help: 'Payments by environment and stored status',
    labelNames: ['environment', 'status'],
    sql: 'SELECT environment, status, count(*) AS count FROM payments GROUP BY environment, status',
  });
  // Every pool of the instance (single statements, batch statements), summed.
  type PoolCounts = { totalCount: number; idleCount: number; waitingCount: number };
  const pools = (db as Db & { pools?: PoolCounts[] }).pools;
  if (pools) {
    const sum = (count: (pool: PoolCounts) => number) => pools.reduce((total, pool) => total + count(pool), 0);
    new Gauge({
      name: 'bhuktani_db_pool_connections',
      help: 'PostgreSQL pool connections by state',
      labelNames: ['state'],
      registers: [registry],
      collect() {
        this.set({ state: 'total' }, sum((pool) => pool.totalCount));
        this.set({ state: 'idle' }, sum((pool) => pool.idleCount));
        this.set({ state: 'waiting' }, sum((pool) => pool.waitingCount));
      },
    });
  }
  const webhookDeliveries = new Counter({
    name: 'bhuktani_webhook_deliveries_total',
    help: 'Webhook delivery attempts by result (delivered, failed)',
    labelNames: ['result'],
    registers: [registry],
  });
  const otpSends = new Counter({
    name: 'bhuktani_otp_sends_total',
    help: 'Live wallet OTPs handed to the OTP sender by result (sent, failed)',
    labelNames: ['result'],
    registers: [registry],
  });
  const providerCalls = new Counter({
    name: 'bhuktani_provider_calls_total',
    help: 'Calls to payment providers by provider, environment, operation (start, status, refund) and result (ok, failed, refused: the provider refused the request as invalid)',
    labelNames: ['provider', 'environment', 'operation', 'result'],
    registers: [registry],
  });
  const providerLatency = new Histogram({
    name: 'bhuktani_provider_call_duration_seconds',
    help: 'Latency of calls to payment providers by provider and operation',
    labelNames: ['provider', 'operation'],
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  const providerOutcomes = new Counter({
    name: 'bhuktani_provider_attempt_outcomes_total',
    help: 'Provider attempts moved by this instance, by the state they moved to',
    labelNames: ['provider', 'environment', 'outcome'],
    registers: [registry],
  });
  storeCountGauge(registry, db, {
    name: 'bhuktani_provider_attempts',
    help: 'Provider attempts by provider, environment and state (Unknown and Escalated are the open unknowns)',
    labelNames: ['provider', 'environment', 'state'],
    sql: 'SELECT provider, environment, state, count(*) AS count FROM provider_attempts GROUP BY provider, environment, state',
  });
  storeCountGauge(registry, db, {
    name: 'bhuktani_payouts_for_operators',
    help: "Payouts waiting for an operator, by environment and why: an account NPI could not match (account), or a payout NPI's reports could not decide (undecided)",
    labelNames: ['environment', 'why'],
    sql: `SELECT environment, 'undecided' AS why, count(*) AS count FROM npi_transfers WHERE needs_operator AND status IN ('unsent', 'sent') GROUP BY environment
          UNION ALL
          SELECT environment, 'account', count(*) FROM account_checks WHERE outcome = 'partial' AND approved_by IS NULL GROUP BY environment`,
    // Said as 0 when there are none, to alert on.
    zeros: ['test', 'live'].flatMap((environment) => ['account', 'undecided'].map((why) => ({ environment, why }))),
  });
  if (db.kind === 'postgres') {
    // The primary's WAL archive, on which point-in-time recovery rests (docs/deploy.md): a failing
    // archive leaves the cluster serving, so it is watched here.
    new Gauge({
      name: 'bhuktani_wal_archive_failing',
      help: "1 while PostgreSQL's last WAL archive attempt failed after its last success (pg_stat_archiver); 0 while archiving; -1 with archive_mode off",
      registers: [registry],
      async collect() {
        const archiving = await walArchiving(db);
        this.set(archiving?.state === 'failing' ? 1 : archiving?.state === 'archiving' ? 0 : -1);
      },
    });
  }
  return { registry, webhookDeliveries, otpSends, providerCalls, providerLatency, providerOutcomes };
}
