// Several instances: three server processes on one PostgreSQL database, sharing rate-limit counters
// through Redis (REDIS_URL), with no balancer: the test spreads the requests itself.
//   (a) the same OTP confirm sent to all three at once completes the payment once (one journal);
//   (b) the expiry sweep runs on all three every second: each overdue payment is expired once, with
//       one `expire` event and one payment.expired webhook;
//   (c) the webhook senders of all three run at once: every event reaches the receiver exactly once;
//   (d) a dashboard session made on one instance works on the others, and a log-out on one ends it
//       on all; the log-in slow-down counts failures across instances (it lives in the database);
//   (e) the per-key API rate limit holds across instances through Redis (429 with Retry-After).
//       Without REDIS_URL each instance counts alone, so N instances let up to N × the limit through.
// PostgreSQL only (DATABASE_URL), in a database of its own.
import { createConnection } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres } from '../../src/db/postgres.js';
import { freePort } from '../processes.js';
import { webhookReceiver } from '../webhook-receiver.js';
import { callbackOf, merchantApi, payerBrowser, requestJson, SANDBOX_WALLETS } from './http-client.js';
import { killAll, sleep, startServer, waitFor, type ServerProcess } from './server-process.js';
import { PASSWORD, postgresUrl, preparePostgres, scratchDatabase, type ShopMerchant } from './store.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const METRICS_TOKEN = 'instances-metrics-token';
const RATE_LIMIT = 10;
const TTL_SECONDS = 15;
const RACED_PAYMENTS = 8;
const SWEPT_PAYMENTS = 40;

/** Whether Redis answers PING at REDIS_URL. */
function redisAnswers(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = createConnection({ host: hostname, port: Number(port || 6379) });
    const done = (up: boolean) => {
      socket.destroy();
      resolve(up);
    };
    socket.setTimeout(2000, () => done(false));
    socket.on('error', () => done(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (data) => done(data.toString().startsWith('+PONG')));
  });
}

const serverUrl = postgresUrl();
const redisUp = serverUrl ? await redisAnswers(REDIS_URL) : false;

afterAll(killAll);

describe.skipIf(!serverUrl)('three instances on one PostgreSQL', () => {
  let database: Awaited<ReturnType<typeof scratchDatabase>>;
  let receiver: Awaited<ReturnType<typeof webhookReceiver>>;
  let merchant: ShopMerchant;
  let servers: ServerProcess[] = [];
  let swept: { pidx: string; expiresAt: number }[] = [];
  const pick = (i: number) => servers[i % servers.length].base;
  const errorsLogged = () =>
    servers
      .flatMap((s) => s.notableLines().filter((line) => Number(line.level) >= 50))
      .map((line) => JSON.stringify(line))
      .join('\n');
  const anyBase = () => servers[Math.floor(Math.random() * servers.length)].base;

  beforeAll(async () => {
    if (!redisUp) throw new Error(`Redis does not answer at ${REDIS_URL}: start it (redis-server --daemonize yes) or set REDIS_URL`);
    database = await scratchDatabase(serverUrl!, `bhuktani_instances_${process.pid}`);
    receiver = await webhookReceiver();
    merchant = await preparePostgres(database.url, receiver.url, 'Three Instance Shop');
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL,
      SWEEP_INTERVAL_SECONDS: '1',
      WEBHOOK_INTERVAL_MS: '100',
      PAYMENT_TTL_SECONDS: String(TTL_SECONDS),
      // The rate-limit test uses the live key; everything else the sandbox key, unthrottled.
      RATE_LIMIT_LIVE: String(RATE_LIMIT),
      METRICS_TOKEN,
    };
    const ports = await Promise.all([freePort(), freePort(), freePort()]);
    servers = await Promise.all(ports.map((port) => startServer(port, env)));

    // (b) Payments left to expire, initiated now through all three, checked once overdue.
    const api = merchantApi(merchant.testKey, 30_000);
    swept = await Promise.all(
      Array.from({ length: SWEPT_PAYMENTS }, async (_, i) => {
        const { status, body } = await api.initiate(pick(i));
        expect(status).toBe(200);
        return { pidx: body.pidx, expiresAt: Date.now() + TTL_SECONDS * 1000 };
      }),
    );
  }, 240_000);

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.terminate()));
    await receiver?.close();
    await database?.drop();
  });

  it('(a) completes a payment once when the same confirm goes to all three at once', async () => {
    const api = merchantApi(merchant.testKey, 30_000);
    const db = openPostgres(database.url, { max: 2 });
    try {
      const results = await Promise.all(
        Array.from({ length: RACED_PAYMENTS }, async (_, n) => {
          const { body } = await api.initiate(pick(n));
          // Each step on another instance: the CSRF secret and the attempt live in the database.
          const browser = payerBrowser(30_000);
          expect((await browser.open(pick(n + 1), body.pidx)).status).toBe(200);
          const otpPage = await browser.wallet(() => pick(n + 2), body.pidx, SANDBOX_WALLETS[n % SANDBOX_WALLETS.length]);
          expect(otpPage.body).toContain('name="otp"');
          const { fields, cookie } = browser.confirmForm('987654');
          // The same form, twice to each instance, all at once.
          const answers = await Promise.all(
            [0, 1, 2, 0, 1, 2].map(async (i) => {
              const response = await fetch(`${servers[i].base}/pay/${body.pidx}/confirm`, {
                method: 'POST',
                redirect: 'manual',
                headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
                body: new URLSearchParams(fields).toString(),
                signal: AbortSignal.timeout(30_000),
              });
              return { status: response.status, location: response.headers.get('location') ?? undefined, body: await response.text() };
            }),
          );
          return { pidx: body.pidx, answers };
        }),
      );
      let endedPages = 0;
      for (const { pidx, answers } of results) {
        const callbacks = answers.map(callbackOf).filter((c) => c !== undefined);
        // Submissions send the payer back as paid, all with the one transaction...
        expect(callbacks.length, pidx).toBeGreaterThan(0);
        expect(callbacks.map((c) => c.status), pidx).toStrictEqual(callbacks.map(() => 'Completed'));
        expect(new Set(callbacks.map((c) => c.transaction_id)).size, pidx).toBe(1);
        // ...except one that read the payment before its twin paid and the attempt after: it shows
        // the attempt-ended page (a known gap of confirmPayment, see the report), never anything else.
        const others = answers.filter((a) => callbackOf(a) === undefined);
        for (const other of others) {
          // Anything else fails with the errors the instances logged, to say why.
          const why = other.status >= 500 ? `\n${errorsLogged()}` : '';
          expect({ status: other.status, ended: other.body.includes('Start again with your mobile number') }, `${pidx}${why}`).toStrictEqual({ status: 400, ended: true });
        }
        endedPages += others.length;
      }
      const pidxs = results.map((r) => r.pidx);
      const counts = await db.query<{ pidx: string; status: string; journals: number; pays: number; webhooks: number }>(
        `SELECT p.pidx, p.status,
                (SELECT count(*)::int FROM journals j WHERE j.pidx = p.pidx AND j.kind = 'payment') AS journals,
                (SELECT count(*)::int FROM payment_events e WHERE e.pidx = p.pidx AND e.event = 'pay') AS pays,
                (SELECT count(*)::int FROM webhook_deliveries d WHERE d.pidx = p.pidx AND d.type = 'payment.completed') AS webhooks
           FROM payments p WHERE p.pidx = ANY($1)`,
        [pidxs],
      );
      expect(counts.map(({ pidx: _, ...c }) => c)).toStrictEqual(pidxs.map(() => ({ status: 'Completed', journals: 1, pays: 1, webhooks: 1 })));
      console.log(`racing confirms: ${RACED_PAYMENTS} payments, each confirmed 6 times at once across 3 instances: each paid once; ${endedPages} of ${RACED_PAYMENTS * 6} answers were the attempt-ended page`);
    } finally {
      await db.close();
    }
  }, 180_000);

  it('(d) shares dashboard sessions and the log-in slow-down across instances', async () => {
    const browser = payerBrowser(30_000);
    expect((await browser.get(`${servers[0].base}/dashboard/login`)).status).toBe(200);
    const loggedIn = await browser.post(`${servers[0].base}/dashboard/login`, { email: merchant.email, password: PASSWORD });
    expect(loggedIn.status, loggedIn.body.slice(0, 500)).toBe(303);
    expect(browser.cookies.get('bhuktani_session')).toMatch(/^[\w-]{43}$/);
    // The session made on A opens the dashboard on B and C.
    for (const server of [servers[1], servers[2]]) {
      const home = await browser.get(`${server.base}/dashboard`);
      expect(home.status, home.location).toBe(200);
      expect(home.body).toContain('Three Instance Shop');
    }
    // Logged out on C (with the form's token, bound to the session): gone on A too.
    const session = browser.cookies.get('bhuktani_session');
    const out = await browser.post(`${servers[2].base}/dashboard/logout`, {});
    expect(out).toMatchObject({ status: 303, location: '/dashboard/login' });
    const after = await fetch(`${servers[0].base}/dashboard`, { redirect: 'manual', headers: { cookie: `bhuktani_session=${session}` } });
    expect(after.status).toBe(303);
    expect(after.headers.get('location')).toBe('/dashboard/login');

    // Wrong passwords for one email, spread over the instances: the 5th locks it everywhere.
    const other = await preparePostgres(database.url, null, 'Locked Shop');
    const guesser = payerBrowser(30_000);
    await guesser.get(`${servers[0].base}/dashboard/login`);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await guesser.post(`${pick(i)}/dashboard/login`, { email: other.email, password: `wrong ${i}` })).status);
    expect(statuses).toStrictEqual([401, 401, 401, 401, 429]);
    // Even the right password, on the third instance.
    const locked = await guesser.post(`${servers[2].base}/dashboard/login`, { email: other.email, password: PASSWORD });
    expect(locked.status).toBe(429);
    expect(locked.retryAfter).toMatch(/^\d+$/);
  }, 120_000);

  it(`(e) holds the per-key API limit (${RATE_LIMIT}/s) across instances through Redis`, async () => {
    const burst = 6 * RATE_LIMIT;
    const answers = await Promise.all(
      Array.from({ length: burst }, async (_, i) => {
        const sentAt = Date.now();
        // An invalid lookup: counted by the limiter, answered 400 without touching a payment.
        const answer = await requestJson(`${pick(i)}/api/v2/epayment/lookup/`, { key: merchant.liveKey, body: {}, timeoutMs: 30_000 });
        return { ...answer, sentAt, receivedAt: Date.now() };
      }),
    );
    const allowed = answers.filter((a) => a.status === 400);
    const limited = answers.filter((a) => a.status === 429);
    expect(allowed.length + limited.length).toBe(burst);
    // Each one-second window the burst touched let at most RATE_LIMIT through, whichever instance
    // answered (per instance it would be up to 3 × RATE_LIMIT per window).
    const windows = Math.floor(Math.max(...answers.map((a) => a.receivedAt)) / 1000) - Math.floor(Math.min(...answers.map((a) => a.sentAt)) / 1000) + 1;
    expect(allowed.length).toBeLessThanOrEqual(RATE_LIMIT * windows);
    if (windows <= 2) expect(allowed.length).toBeLessThanOrEqual(2 * RATE_LIMIT);
    expect(limited.length).toBeGreaterThan(0);
    for (const a of limited) {
      expect(a.body).toStrictEqual({ detail: 'Request was throttled.', status_code: 429 });
      expect(a.headers.get('retry-after')).toMatch(/^\d+$/);
    }
    console.log(`rate limit across 3 instances: ${burst} requests over ${windows} one-second windows: ${allowed.length} allowed, ${limited.length} answered 429 (limit ${RATE_LIMIT}/s)`);
  }, 60_000);

  it('(b) expires each overdue payment once while all three sweep', async () => {
    const db = openPostgres(database.url, { max: 2 });
    try {
      await sleep(Math.max(0, Math.max(...swept.map((p) => p.expiresAt)) - Date.now()));
      const pidxs = swept.map((p) => p.pidx);
      await waitFor(
        'the sweep to expire every overdue payment',
        async () => ((await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM payments WHERE pidx = ANY($1) AND status = 'Expired'`, [pidxs]))[0].n === pidxs.length ? true : undefined),
        60_000,
      );
      // A few more sweeps on each instance, which must find nothing to do.
      await sleep(3000);
      const counts = await db.query<{ expires: number; webhooks: number }>(
        `SELECT (SELECT count(*)::int FROM payment_events e WHERE e.pidx = p.pidx AND e.event = 'expire') AS expires,
                (SELECT count(*)::int FROM webhook_deliveries d WHERE d.pidx = p.pidx AND d.type = 'payment.expired') AS webhooks
           FROM payments p WHERE p.pidx = ANY($1)`,
        [pidxs],
      );
      expect(counts).toStrictEqual(pidxs.map(() => ({ expires: 1, webhooks: 1 })));
    } finally {
      await db.close();
    }
  }, 120_000);

  it('(c) delivers each webhook event exactly once while all three senders run', async () => {
    const db = openPostgres(database.url, { max: 2 });
    try {
      const rows = await waitFor(
        'every delivery to be made',
        async () => {
          const all = await db.query<{ event_id: string; status: string }>('SELECT event_id, status FROM webhook_deliveries');
          return all.length > 0 && all.every((r) => r.status === 'delivered') ? all : undefined;
        },
        60_000,
      );
      const ids = receiver.received.map((r) => (JSON.parse(r.body) as { id: string }).id);
      expect(ids.length).toBe(new Set(ids).size);
      expect(new Set(ids)).toStrictEqual(new Set(rows.map((r) => r.event_id)));
      // Which instances sent them: the senders really ran side by side.
      const perInstance = await Promise.all(
        servers.map(async (s) => {
          const text = await (await fetch(`${s.base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
          return Number(/bhuktani_webhook_deliveries_total\{result="delivered"\} (\d+)/.exec(text)?.[1] ?? 0);
        }),
      );
      expect(perInstance.reduce((a, b) => a + b, 0)).toBe(rows.length);
      console.log(`webhooks with 3 senders: ${rows.length} events, each received once; sent by the instances ${perInstance.join(' / ')}`);
    } finally {
      await db.close();
    }
  }, 120_000);
});
