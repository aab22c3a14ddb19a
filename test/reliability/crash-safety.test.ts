// Crash safety: under concurrent initiates, payments on the hosted page, refunds and payouts (the
// sandbox bank paying them meanwhile), the server is
// killed with SIGKILL at random moments and started again. Afterwards every promise an answer made
// still holds: each initiate answered 200 is found by lookup, each payment sent back as Completed is
// paid with exactly one journal, every ledger invariant holds (`bhuktani ledger verify`), and every
// committed move has its webhook event, delivered at least once and never invented.
//
// Fast (every CI run): 4 kills, each 0.3–1.5 s after the restarted server answered its first requests.
// RELIABILITY_LONG=1: 25 kills.
import { afterAll, describe, expect, it } from 'vitest';
import type { Queryable } from '../../src/db/db.js';
import { freePort } from '../processes.js';
import { webhookReceiver } from '../webhook-receiver.js';
import { merchantApi } from './http-client.js';
import { describeOutcomes, emptyRecord, startLoad, type LoadRecord } from './load-driver.js';
import { killAll, sleep, startServer, waitFor, type ServerProcess } from './server-process.js';
import { deliveryRows, journalViolations, ledgerVerify, outboxGaps, paymentRows } from './store.js';
import { openTestStore, storeKinds, type TestStore } from './stores.js';

const LONG = process.env.RELIABILITY_LONG === '1';
const KILLS = LONG ? 25 : 4;
const TTL_SECONDS = 8;
const WEBHOOK_LEASE_SECONDS = 60;

afterAll(killAll);

const serverEnv = (store: TestStore) => ({
  ...store.env,
  SWEEP_INTERVAL_SECONDS: '1',
  WEBHOOK_INTERVAL_MS: '200',
  PAYMENT_TTL_SECONDS: String(TTL_SECONDS),
  SANDBOX_BANK_INTERVAL_MS: '200',
  // Payouts take what was just paid (SETTLEMENT_HOLD_HOURS 0, docs/settlements.md).
  SETTLEMENT_HOLD_HOURS: '0',
});

/** How often each event id reached the receiver. */
function receivedIds(received: { body: string }[]): Map<string, number> {
  const ids = new Map<string, number>();
  for (const r of received) {
    const id = (JSON.parse(r.body) as { id: string }).id;
    ids.set(id, (ids.get(id) ?? 0) + 1);
  }
  return ids;
}

/** Runs `work` over `items`, `concurrency` at a time. */
async function inBatches<T>(items: T[], concurrency: number, work: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < items.length) await work(items[next++]);
  }));
}

/** Every promise the answers made, checked over HTTP against the restarted server. */
async function checkAnswersKept(server: ServerProcess, key: string, record: LoadRecord) {
  const api = merchantApi(key, 30_000);
  const refunded = new Map<string, number>();
  for (const r of record.refunds) refunded.set(r.pidx, (refunded.get(r.pidx) ?? 0) + r.amount);
  const problems: string[] = [];
  await inBatches([...record.initiated.keys()], 6, async (pidx) => {
    const { status, body } = await api.lookup(server.base, pidx);
    if ((status !== 200 && status !== 400) || body.pidx !== pidx) return void problems.push(`lookup ${pidx}: ${status} ${JSON.stringify(body)}`);
    const transactionId = record.completed.get(pidx);
    if (transactionId !== undefined) {
      if (!['Completed', 'Partially refunded', 'Refunded'].includes(body.status) || body.transaction_id !== transactionId) {
        problems.push(`paid ${pidx} (transaction ${transactionId}) is now ${body.status} ${body.transaction_id}`);
      }
      // A refund that got no answer may have committed too, so at least what was answered 200.
      if (body.refunded_amount < (refunded.get(pidx) ?? 0)) problems.push(`${pidx} refunded ${body.refunded_amount} < ${refunded.get(pidx)} answered`);
    }
    if (record.canceled.has(pidx) && body.status !== 'User canceled') problems.push(`canceled ${pidx} is now ${body.status}`);
  });
  // Every payout answered 201 exists with its amount, and the sandbox (NPI's simulator) pays it after the restart.
  await inBatches(record.payouts, 6, async (payout) => {
    const state = await waitFor(`payout ${payout.idx} to be Paid`, async () => {
      const { status, body } = await api.getPayout(server.base, payout.idx);
      if (status !== 200 || body.amount !== payout.amount) return `${status} ${JSON.stringify(body)}`;
      return body.state === 'Paid' ? 'Paid' : undefined;
    }, 30_000, 200);
    if (state !== 'Paid') problems.push(`payout ${payout.idx}: ${state}`);
  });
  expect(problems).toStrictEqual([]);
}

/** Store-side checks: one journal per paid payment, one webhook delivery per committed move. */
async function checkStore(db: Queryable, record: LoadRecord) {
  expect(await journalViolations(db)).toStrictEqual([]);
  expect(await outboxGaps(db)).toStrictEqual([]);
  const payments = new Map((await paymentRows(db)).map((p) => [p.pidx, p]));
  for (const pidx of record.initiated.keys()) expect(payments.has(pidx), pidx).toBe(true);
}

/**
 * A delivery leased by a killed instance waits out its lease (60 s) before another one retries it.
 * The fast run moves those leases' end to now, as 60 s passing would; the long run waits for real.
 */
async function endDeadLeases(db: Queryable): Promise<number> {
  if (LONG) return 0;
  const rows = await db.query(`UPDATE webhook_deliveries SET locked_until = now() WHERE status = 'pending' AND locked_until > now() RETURNING id`);
  return rows.length;
}

describe.each(storeKinds)('crash safety on %s', (kind) => {
  it(`keeps every answered promise through ${KILLS} SIGKILLs under load`, async () => {
    const receiver = await webhookReceiver();
    const store = await openTestStore(kind, 'crash', receiver.url);
    const port = await freePort();
    const record = emptyRecord();
    const startedAt = Date.now();
    const figures: string[] = [];
    let server: ServerProcess | undefined;
    try {
      for (let kill = 1; kill <= KILLS; kill++) {
        const t0 = Date.now();
        server = await startServer(port, serverEnv(store));
        const startMs = Date.now() - t0;
        const answeredBefore = record.answers;
        const load = startLoad({ base: () => server!.base, key: store.merchant.testKey, workers: 8, timeoutMs: 30_000, payoutShare: 0.5 }, record);
        // The first requests after a start are slow (a cold process): count the load from the first answers.
        await waitFor('the first answers', () => (record.answers >= answeredBefore + 3 ? true : undefined), 60_000, 20);
        const loadMs = 300 + Math.floor(Math.random() * 1200);
        await sleep(loadMs);
        await server.kill();
        await load.stop();
        figures.push(`kill ${kill}: started in ${startMs} ms, killed after ${loadMs} ms of load`);
      }
      const lastLoadAt = Date.now();

      // No server runs: the store as the last kill left it.
      const leasesEnded = await store.inspect(endDeadLeases);
      // Everything the load initiated and left alone is overdue by the final start, so its first
      // sweep expires it and no move happens after that.
      await sleep(Math.max(0, lastLoadAt + (TTL_SECONDS + 1) * 1000 - Date.now()));

      server = await startServer(port, serverEnv(store));
      await checkAnswersKept(server, store.merchant.testKey, record);

      if (kind === 'postgres') {
        await store.inspect((db) => checkStore(db, record));
        expect(await ledgerVerify(store.env)).toMatchObject({ code: 0, ok: true });
      }

      // Every delivery row (one per committed move) reaches the receiver; PGlite's rows can be read
      // only with the server stopped, so there it is stop, read, and start again until all arrived.
      const deadline = Date.now() + (LONG ? WEBHOOK_LEASE_SECONDS + 60 : 60) * 1000;
      let rows = [] as Awaited<ReturnType<typeof deliveryRows>>;
      for (;;) {
        if (kind === 'pglite') {
          // Quiet for 2 s: the sender has caught up with what is due.
          let seen = -1;
          await waitFor('webhooks to go quiet', async () => {
            const now = receiver.received.length;
            const quiet = now === seen;
            seen = now;
            return quiet ? true : undefined;
          }, 60_000, 2000);
          const stopped = await server.terminate();
          expect(stopped.code, server.output().slice(-3000)).toBe(0);
          rows = await store.inspect(deliveryRows);
        } else {
          rows = await store.inspect(deliveryRows);
        }
        const ids = receivedIds(receiver.received);
        const missing = rows.filter((r) => r.status !== 'delivered' || !ids.has(r.event_id));
        if (missing.length === 0) break;
        if (Date.now() > deadline) throw new Error(`webhook events not delivered: ${JSON.stringify(missing.slice(0, 10))}`);
        if (kind === 'pglite') server = await startServer(port, serverEnv(store));
        else await sleep(500);
      }

      const ids = receivedIds(receiver.received);
      const known = new Set(rows.map((r) => r.event_id));
      expect([...ids.keys()].filter((id) => !known.has(id)), 'events received that no committed move made').toStrictEqual([]);
      const duplicates = [...ids.values()].filter((n) => n > 1).length;

      if (kind === 'pglite') {
        await store.inspect((db) => checkStore(db, record));
        expect(await ledgerVerify(store.env)).toMatchObject({ code: 0, ok: true });
      } else {
        expect((await server.terminate()).code).toBe(0);
      }

      expect(record.serverErrors).toStrictEqual([]);
      // The load did something worth checking.
      expect(record.initiated.size).toBeGreaterThan(0);
      const types = new Map<string, number>();
      for (const r of rows) types.set(r.type, (types.get(r.type) ?? 0) + 1);
      console.log(
        `crash safety on ${kind}: ${KILLS} kills in ${Math.round((Date.now() - startedAt) / 1000)} s; ` +
          `${record.initiated.size} initiated, ${record.completed.size} paid, ${record.canceled.size} canceled, ${record.refunds.length} refunds answered 200, ${record.payouts.length} payouts 201; ` +
          `${rows.length} webhook events (${[...types].map(([t, n]) => `${t} ${n}`).join(', ')}), ${duplicates} delivered more than once, ` +
          `${leasesEnded} dead leases ended\n  ${figures.join('\n  ')}\n  outcomes: ${describeOutcomes(record)}`,
      );
    } finally {
      await server?.kill();
      await receiver.close();
      await store.remove();
    }
  }, LONG ? 1_800_000 : 300_000);
});
