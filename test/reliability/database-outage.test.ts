// Database outage: PostgreSQL goes away under load (a private cluster stopped with `pg_ctl -m
// immediate`, never the machine's shared server) and comes back. While it is down every request is
// answered promptly, the API with 503 and a JSON `detail` and Retry-After, nothing hangs and the
// process stays up (/health still answers); the expiry sweep and the webhook sender log their
// failures and go on. Once it is back the service recovers by itself, without a restart: requests
// succeed again, the sweep persists what expired meanwhile, webhooks flow, and the ledger holds.
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../processes.js';
import { webhookReceiver } from '../webhook-receiver.js';
import { callbackOf, merchantApi, payOnPortal, requestJson, SANDBOX_WALLETS } from './http-client.js';
import { describeOutcomes, startLoad } from './load-driver.js';
import { openOutageDatabase, outageDatabaseKind, type OutageDatabase } from './private-postgres.js';
import { killAll, sleep, startServer, waitFor, type ServerProcess } from './server-process.js';
import { journalViolations, ledgerVerify, outboxGaps, preparePostgres } from './store.js';
import { openPostgres } from '../../src/db/postgres.js';

afterAll(killAll);

const OUTAGE_MS = 6000;
/** "Prompt": well under a client's patience, and under the pool's 3 s connect timeout plus a margin. */
const PROMPT_MS = 5000;
const TTL_SECONDS = 4;
/** A hung database: how long it hangs, and the answer time allowed (the pool's 3 s connect timeout, the server's 5 s statement timeout, a margin). */
const FROZEN_MS = 10_000;
const FROZEN_PROMPT_MS = 8000;

/** An answer from a working service: the probed payment expires during the test (lookup 400, page 410). */
const OK: Record<string, number[]> = { initiate: [200], lookup: [200, 400], 'hosted page': [200, 410], health: [200] };
const ok = (p: Probe) => typeof p.status === 'number' && OK[p.what].includes(p.status);

interface Probe {
  what: string;
  startedAt: number;
  status: number | 'no answer';
  ms: number;
  body: unknown;
  retryAfter: string | null;
}

/** One request of each kind a client makes, again and again, until `stop()`. */
function probeLoop(base: string, key: string, pidx: string) {
  const probes: Probe[] = [];
  let stopping = false;
  const kinds: [string, () => Promise<{ status: number; body: unknown; headers: Headers }>][] = [
    ['initiate', () => merchantApi(key, 15_000).initiate(base)],
    ['lookup', () => merchantApi(key, 15_000).lookup(base, pidx)],
    ['hosted page', () => requestJson(`${base}/pay/${pidx}`, { method: 'GET', timeoutMs: 15_000 })],
    ['health', () => requestJson(`${base}/health`, { method: 'GET', timeoutMs: 15_000 })],
  ];
  const loops = kinds.map(async ([what, send]) => {
    while (!stopping) {
      const startedAt = Date.now();
      try {
        const answer = await send();
        probes.push({ what, startedAt, status: answer.status, ms: Date.now() - startedAt, body: answer.body, retryAfter: answer.headers.get('retry-after') });
      } catch (error) {
        probes.push({ what, startedAt, status: 'no answer', ms: Date.now() - startedAt, body: String((error as Error).cause ?? error), retryAfter: null });
      }
      await sleep(150);
    }
  });
  return {
    probes,
    async stop() {
      stopping = true;
      await Promise.all(loops);
    },
  };
}

const outageKind = outageDatabaseKind();

describe.skipIf(!outageKind)(`database outage (${outageKind ?? 'no PostgreSQL to take down'})`, () => {
  let opened: OutageDatabase | undefined;
  afterAll(() => opened?.remove());

  it('answers 503 promptly while PostgreSQL is down and recovers by itself when it is back', async () => {
    const db = (opened ??= await openOutageDatabase('outage'));
    const receiver = await webhookReceiver();
    const merchant = await preparePostgres(db.url, receiver.url);
    const port = await freePort();
    let server: ServerProcess | undefined;
    let probesSeen: Probe[] | undefined;
    try {
      server = await startServer(port, { DATABASE_URL: db.url, SWEEP_INTERVAL_SECONDS: '1', WEBHOOK_INTERVAL_MS: '200', PAYMENT_TTL_SECONDS: String(TTL_SECONDS) });
      const base = server.base;
      const api = merchantApi(merchant.testKey, 30_000);
      const load = startLoad({ base: () => base, key: merchant.testKey, workers: 4, timeoutMs: 30_000 });
      await waitFor('the load to get going', () => (load.record.initiated.size >= 10 ? true : undefined), 60_000, 50);

      // A payment that will be overdue during the outage, and one to probe with.
      const { body: overdue } = await api.initiate(base);
      const { body: probed } = await api.initiate(base);
      const probes = probeLoop(base, merchant.testKey, probed.pidx);
      probesSeen = probes.probes;
      await sleep(500);

      const downAt = Date.now();
      await db.down();
      const downMs = Date.now() - downAt;
      await sleep(OUTAGE_MS);
      const upAt = Date.now();
      await db.up();
      const upMs = Date.now() - upAt;

      // Recovered: every kind of request succeeds again, with no restart.
      const recovered = await waitFor(
        `requests to succeed again (${server.pid})`,
        () => {
          const after = probes.probes.filter((p) => p.startedAt > upAt + upMs);
          const kinds = ['initiate', 'lookup', 'hosted page'];
          return kinds.every((k) => after.some((p) => p.what === k && ok(p))) ? Date.now() : undefined;
        },
        60_000,
        50,
      );
      const firstOk = Math.min(...probes.probes.filter((p) => p.startedAt > upAt + upMs && p.what === 'initiate' && p.status === 200).map((p) => p.startedAt + p.ms));
      await sleep(2000);
      await probes.stop();
      await load.stop();

      // While it was down (from the moment pg_ctl reported it stopped until it was started again).
      const during = probes.probes.filter((p) => p.startedAt >= downAt + downMs && p.startedAt + p.ms < upAt);
      const api503 = during.filter((p) => p.what !== 'health');
      expect(api503.length).toBeGreaterThan(10);
      expect(during.filter((p) => p.status === 'no answer' || p.ms >= PROMPT_MS)).toStrictEqual([]);
      for (const p of during.filter((x) => x.what === 'health')) expect(p.status).toBe(200);
      for (const p of api503) expect(p.status, JSON.stringify(p)).toBe(503);
      for (const p of api503.filter((x) => x.what !== 'hosted page')) {
        expect(p.body).toStrictEqual({ detail: expect.any(String), status_code: 503 });
        expect(p.retryAfter).toMatch(/^\d+$/);
      }
      // Afterwards, all good again (the last 2 s).
      const after = probes.probes.filter((p) => p.startedAt > recovered);
      expect(after.filter((p) => !ok(p))).toStrictEqual([]);
      expect(server.running()).toBe(true);
      // The load saw only 503s as server errors, never a 500.
      expect(load.record.serverErrors.filter((e) => !/ 503 /.test(e))).toStrictEqual([]);

      // The jobs failed while it was down, said so, and carried on afterwards.
      const messages = server.notableLines().filter((l) => (l.level as number) >= 50).map((l) => l.msg);
      expect(messages).toContain('expiry sweep failed');
      expect(messages).toContain('webhook delivery failed');
      const store = openPostgres(db.url, { max: 2 });
      try {
        await waitFor(
          'the sweep to persist the payment that expired during the outage',
          async () => ((await store.query<{ status: string }>('SELECT status FROM payments WHERE pidx = $1', [overdue.pidx]))[0].status === 'Expired' ? true : undefined),
          30_000,
        );
        const { body: fresh } = await api.initiate(base);
        expect(callbackOf(await payOnPortal(() => base, fresh.pidx, SANDBOX_WALLETS[2], 30_000))?.status).toBe('Completed');
        await waitFor(
          'the webhook of a payment made after the outage',
          () => (receiver.received.some((r) => (JSON.parse(r.body) as { data: { pidx: string } }).data.pidx === fresh.pidx) ? true : undefined),
          30_000,
        );
        expect(await journalViolations(store)).toStrictEqual([]);
        expect(await outboxGaps(store)).toStrictEqual([]);
      } finally {
        await store.close();
      }
      expect(await ledgerVerify({ DATABASE_URL: db.url })).toMatchObject({ code: 0, ok: true });
      expect((await server.terminate()).code).toBe(0);

      const slowest = Math.max(...during.map((p) => p.ms));
      const median = during.map((p) => p.ms).sort((a, b) => a - b)[Math.floor(during.length / 2)];
      console.log(
        `database outage (${db.kind}): down in ${downMs} ms, ${OUTAGE_MS} ms out, up in ${upMs} ms; ${during.length} requests during the outage, ` +
          `${api503.length} answered 503 (median ${median} ms, slowest ${slowest} ms); first initiate 200 ${firstOk - (upAt + upMs)} ms after PostgreSQL was back\n  ` +
          `load: ${describeOutcomes(load.record)}`,
      );
    } catch (error) {
      const t0 = probesSeen?.[0]?.startedAt ?? 0;
      console.log((probesSeen ?? []).map((p) => `${p.startedAt - t0} ${p.what} ${p.status} ${p.ms}ms`).join('\n'), server?.output().slice(-6000));
      throw error;
    } finally {
      await server?.kill();
      await receiver.close();
    }
  }, 300_000);

  it.skipIf(outageKind !== 'private cluster')('answers 503 within the statement timeout while PostgreSQL hangs, and recovers when it answers again', async () => {
    const db = (opened ??= await openOutageDatabase('outage'));
    const merchant = await preparePostgres(db.url, null, 'Frozen Shop');
    const port = await freePort();
    let server: ServerProcess | undefined;
    let probesSeen: Probe[] | undefined;
    try {
      server = await startServer(port, { DATABASE_URL: db.url, SWEEP_INTERVAL_SECONDS: '1' });
      const base = server.base;
      const { body: probed } = await merchantApi(merchant.testKey).initiate(base);
      const load = startLoad({ base: () => base, key: merchant.testKey, workers: 4, timeoutMs: 30_000 });
      await waitFor('the load to get going', () => (load.record.initiated.size >= 10 ? true : undefined), 60_000, 50);
      const probes = probeLoop(base, merchant.testKey, probed.pidx);
      probesSeen = probes.probes;
      await sleep(500);

      db.freeze!();
      const frozenAt = Date.now();
      await sleep(FROZEN_MS);
      const thawedAt = Date.now();
      db.thaw!();
      const recovered = await waitFor(
        'requests to succeed again',
        () => {
          const after = probes.probes.filter((p) => p.startedAt > thawedAt);
          return ['initiate', 'lookup', 'hosted page'].every((k) => after.some((p) => p.what === k && ok(p))) ? Date.now() : undefined;
        },
        60_000,
        50,
      );
      await sleep(2000);
      await probes.stop();
      await load.stop();

      // Requests under way while it hung (sent before or during): none hung, none took longer than
      // the timeouts allow, every kind got 503s; each sent and answered while it hung was a 503.
      const during = probes.probes.filter((p) => p.startedAt < thawedAt && p.startedAt + p.ms > frozenAt);
      expect(during.filter((p) => p.status === 'no answer' || p.ms >= FROZEN_PROMPT_MS).map(({ body: _, ...p }) => p)).toStrictEqual([]);
      for (const p of during.filter((x) => x.what === 'health')) expect(p.status).toBe(200);
      const api = during.filter((p) => p.what !== 'health');
      const api503 = api.filter((p) => p.status === 503);
      expect(new Set(api503.map((p) => p.what))).toStrictEqual(new Set(['initiate', 'lookup', 'hosted page']));
      const whollyFrozen = api.filter((p) => p.startedAt >= frozenAt && p.startedAt + p.ms < thawedAt);
      expect(whollyFrozen.filter((p) => p.status !== 503).map(({ body: _, ...p }) => p)).toStrictEqual([]);
      for (const p of api503.filter((x) => x.what !== 'hosted page')) expect(p.body).toStrictEqual({ detail: expect.any(String), status_code: 503 });
      // Sent just before it hung or answered just after it came back: either outcome, but an answer.
      for (const p of api) expect(p.status === 503 || ok(p), JSON.stringify(p)).toBe(true);
      expect(probes.probes.filter((p) => p.startedAt > recovered).filter((p) => !ok(p))).toStrictEqual([]);
      expect(load.record.serverErrors.filter((e) => !/ 503 /.test(e))).toStrictEqual([]);
      expect(server.running()).toBe(true);
      expect((await server.terminate()).code).toBe(0);

      const times = api503.map((p) => p.ms).sort((a, b) => a - b);
      console.log(
        `database hang (SIGSTOP): ${api503.length} requests answered 503 while it hung (median ${times[Math.floor(times.length / 2)]} ms, slowest ${times.at(-1)} ms); ` +
          `all kinds answered again ${recovered - thawedAt} ms after it resumed`,
      );
    } catch (error) {
      const t0 = probesSeen?.[0]?.startedAt ?? 0;
      console.log((probesSeen ?? []).map((p) => `${p.startedAt - t0} ${p.what} ${p.status} ${p.ms}ms`).join('\n'), server?.output().slice(-4000));
      throw error;
    } finally {
      await server?.kill();
    }
  }, 300_000);
});
