// The stores the reliability suites run on, and the checks they make on them afterwards in SQL.
// PGlite: a fresh data directory, set up with the CLI and by opening it in this process while no
// server holds it. PostgreSQL: a database of its own on the server DATABASE_URL names, so the shared
// test database (reset by global-setup.ts) is never touched.
import pg from 'pg';
import { cryptoIds, systemClock } from '../../src/clock.js';
import { loadConfig } from '../../src/config.js';
import type { AppContext } from '../../src/context.js';
import type { Db, Queryable } from '../../src/db/db.js';
import { migrate } from '../../src/db/migrate.js';
import { openDb } from '../../src/db/open.js';
import { openPostgres } from '../../src/db/postgres.js';
import { createMerchant } from '../../src/merchants/create-merchant.js';
import { setWebhookEndpoint } from '../../src/webhooks/webhook-store.js';
import { runCli } from '../processes.js';

export const PASSWORD = 'correct horse battery';

export interface ShopMerchant {
  id: number;
  email: string;
  testKey: string;
  liveKey: string;
}

/** The PostgreSQL server of DATABASE_URL, or undefined when the run is on PGlite. */
export function postgresUrl(): string | undefined {
  const url = process.env.DATABASE_URL;
  return url?.startsWith('postgres') ? url : undefined;
}

function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

/** A new, empty database `name` on the server of `serverUrl` (dropped first if a crashed run left it). */
export async function scratchDatabase(serverUrl: string, name: string): Promise<{ url: string; drop(): Promise<void> }> {
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: withDatabase(serverUrl, 'postgres'), connectionTimeoutMillis: 10_000 });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin(`CREATE DATABASE ${name}`);
  return { url: withDatabase(serverUrl, name), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

function commandContext(db: Db): AppContext {
  // createMerchant needs only the store, the time and the ids.
  return { db, clock: systemClock, ids: cryptoIds, config: loadConfig({}) } as AppContext;
}

let made = 0;

/** A migrated PostgreSQL database with one merchant whose sandbox webhooks go to `webhookUrl`. */
export async function preparePostgres(url: string, webhookUrl: string | null, name = 'Reliability Shop'): Promise<ShopMerchant> {
  const db = openPostgres(url, { max: 2 });
  try {
    await migrate(db);
    // Rate-limit counters in a shared Redis are named by key id: ids no other test database uses.
    await db.query(`SELECT setval('secret_keys_id_seq', greatest((SELECT last_value FROM secret_keys_id_seq), $1))`, [1_000_000 + (process.pid % 100_000) * 1000]);
    made += 1;
    const email = `shop-${process.pid}-${Date.now()}-${made}@example.com`;
    const created = await createMerchant(commandContext(db), { name, email, password: PASSWORD });
    if (webhookUrl) await setWebhookEndpoint(db, created.merchant.id, 'test', webhookUrl, new Date());
    return { id: created.merchant.id, email, testKey: created.test_secret_key, liveKey: created.live_secret_key };
  } finally {
    await db.close();
  }
}

/** Opens a PGlite data directory in this process (no server may hold it) for `work`. */
export async function withDataDir<T>(dataDir: string, work: (db: Db) => Promise<T>): Promise<T> {
  const db = await openDb(loadConfig({ DATA_DIR: dataDir }), 'command');
  try {
    return await work(db);
  } finally {
    await db.close();
  }
}

/** A PGlite data directory with a merchant made by `bhuktani merchant create`, its webhooks to `webhookUrl`. */
export async function preparePglite(dataDir: string, webhookUrl: string | null): Promise<ShopMerchant> {
  const email = `shop-${process.pid}@example.com`;
  const created = await runCli(['merchant', 'create', '--name', 'Reliability Shop', '--email', email, '--password', PASSWORD, '--json'], { DATA_DIR: dataDir });
  if (created.code !== 0) throw new Error(`merchant create failed (${created.code}):\n${created.stdout}\n${created.stderr}`);
  const { idx, test_secret_key: testKey, live_secret_key: liveKey } = JSON.parse(created.stdout) as { idx: string; test_secret_key: string; live_secret_key: string };
  const id = await withDataDir(dataDir, async (db) => {
    const [merchant] = await db.query<{ id: number }>('SELECT id FROM merchants WHERE idx = $1', [idx]);
    if (webhookUrl) await setWebhookEndpoint(db, merchant.id, 'test', webhookUrl, new Date());
    return merchant.id;
  });
  return { id, email, testKey, liveKey };
}

/** Payments in a paid state without exactly one payment journal, and any other payment with one. */
export function journalViolations(db: Queryable) {
  return db.query<{ pidx: string; status: string; payment_journals: number }>(
    `SELECT p.pidx, p.status, count(j.id)::int AS payment_journals
       FROM payments p LEFT JOIN journals j ON j.pidx = p.pidx AND j.kind = 'payment'
      GROUP BY p.pidx, p.status
     HAVING count(j.id) <> CASE WHEN p.status IN ('Completed', 'Partially refunded', 'Refunded') THEN 1 ELSE 0 END`,
  );
}

const MOVE_EVENT_TYPES = `CASE e.event WHEN 'pay' THEN 'payment.completed' WHEN 'hold' THEN 'payment.pending' WHEN 'cancel' THEN 'payment.canceled'
  WHEN 'expire' THEN 'payment.expired' WHEN 'resolve_completed' THEN 'payment.completed' WHEN 'resolve_canceled' THEN 'payment.canceled'
  WHEN 'refund' THEN 'refund.completed' END`;

/**
 * Committed moves (payment_events, payouts Paid or Failed) whose count of webhook deliveries differs, per payment (or payout) and event
 * type: a move without its delivery is a lost event, a delivery without its move an invented one.
 */
export function outboxGaps(db: Queryable) {
  return db.query<{ pidx: string; type: string; moves: number; deliveries: number }>(
    `WITH moves AS (
       SELECT e.pidx, ${MOVE_EVENT_TYPES} AS type, count(*)::int AS n FROM payment_events e
        WHERE e.event IN ('pay', 'hold', 'cancel', 'expire', 'resolve_completed', 'resolve_canceled', 'refund') GROUP BY 1, 2
       UNION ALL
       -- A payout's events are its moves to Paid and Failed (docs/settlements.md), keyed by its idx.
       SELECT idx, CASE state WHEN 'Paid' THEN 'payout.paid' ELSE 'payout.failed' END, 1 FROM payouts WHERE state IN ('Paid', 'Failed')
     ), sent AS (
       SELECT coalesce(pidx, payload ->> 'idx') AS pidx, type, count(*)::int AS n FROM webhook_deliveries GROUP BY 1, 2
     )
     SELECT coalesce(m.pidx, s.pidx) AS pidx, coalesce(m.type, s.type) AS type, coalesce(m.n, 0) AS moves, coalesce(s.n, 0) AS deliveries
       FROM moves m FULL JOIN sent s ON s.pidx = m.pidx AND s.type = m.type
      WHERE coalesce(m.n, 0) <> coalesce(s.n, 0)`,
  );
}

export interface DeliveryRow {
  event_id: string;
  type: string;
  pidx: string;
  status: string;
  attempts: number;
  locked_until: Date | null;
}

export function deliveryRows(db: Queryable) {
  return db.query<DeliveryRow>('SELECT event_id, type, pidx, status, attempts, locked_until FROM webhook_deliveries ORDER BY id');
}

export function paymentRows(db: Queryable) {
  return db.query<{ pidx: string; status: string; transaction_id: string | null; amount: number; refunded_amount: number }>(
    'SELECT pidx, status, transaction_id, amount, refunded_amount FROM payments',
  );
}

/** `bhuktani ledger verify --json` as a process; PGlite: only while no server holds the directory. */
export async function ledgerVerify(env: Record<string, string>): Promise<{ code: number | null; ok: boolean; report: string }> {
  const result = await runCli(['ledger', 'verify', '--json'], env);
  let ok = false;
  try {
    ok = (JSON.parse(result.stdout) as { ok: boolean }).ok;
  } catch {
    ok = false;
  }
  return { code: result.code, ok, report: `${result.stdout}\n${result.stderr}`.slice(0, 4000) };
}

/** The books of the PostgreSQL store at `url`, checked twice: the journals' own rules, and `bhuktani ledger verify` as a process. */
export async function ledgerChecks(url: string): Promise<{ violations: Awaited<ReturnType<typeof journalViolations>>; verified: Awaited<ReturnType<typeof ledgerVerify>> }> {
  const db = openPostgres(url, { max: 1 });
  try {
    return { violations: await journalViolations(db), verified: await ledgerVerify({ DATABASE_URL: url }) };
  } finally {
    await db.close();
  }
}
