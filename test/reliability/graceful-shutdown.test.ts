// Graceful shutdown: SIGTERM while requests are in flight and a webhook delivery is under way. Every
// request the server had taken is answered (initiates 200, OTP confirms 303; none reset), including
// those whose bodies arrive only after the jobs have stopped and Fastify is closing; the delivery is
// finished and recorded, not left leased; the process logs each stage and exits 0 within seconds,
// with no error logged.
import { Agent, createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { validInitiate } from '../api-client.js';
import { freePort } from '../processes.js';
import { callbackOf, merchantApi, payerBrowser, payOnPortal, SANDBOX_WALLETS } from './http-client.js';
import { killAll, sleep, startServer, waitFor, type ServerProcess } from './server-process.js';
import { openTestStore, storeKinds } from './stores.js';

afterAll(killAll);

const IN_FLIGHT_INITIATES = 24;
const IN_FLIGHT_CONFIRMS = 8;
const RECEIVER_DELAY_MS = 3000;

/** A webhook endpoint that takes its time to answer. */
async function slowReceiver(delayMs: number) {
  const arrived: string[] = [];
  let holding = 0;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      arrived.push(Buffer.concat(chunks).toString('utf8'));
      holding += 1;
      setTimeout(() => {
        holding -= 1;
        response.writeHead(200).end('ok');
      }, delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    arrived,
    /** Deliveries received and not yet answered. */
    holding: () => holding,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * A POST whose headers go now and whose body only when `finish` is called: a request the server has
 * taken (it logs it as incoming) and cannot answer before the rest arrives.
 */
function heldPost(agent: Agent, url: string, headers: Record<string, string>, body: string) {
  let finish = () => {};
  const answer = new Promise<{ status: number; body: string; location: string }>((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', agent, headers: { ...headers, 'content-length': Buffer.byteLength(body) } }, (response) => {
      let text = '';
      response.on('data', (c) => (text += c));
      response.on('end', () => resolve({ status: response.statusCode!, body: text, location: String(response.headers.location ?? '') }));
    });
    req.on('error', reject);
    req.write(body.slice(0, 10));
    finish = () => req.end(body.slice(10));
  });
  return { answer, finish: () => finish() };
}

const logged = (server: ServerProcess, msg: string, reqId?: string) =>
  server.logLines().filter((l) => l.msg === msg && (reqId === undefined || l.reqId === reqId)).length;

describe.each(storeKinds)('graceful shutdown on %s', (kind) => {
  it('answers every request in flight, finishes the webhook under way, stops the jobs and exits 0', async () => {
    const receiver = await slowReceiver(RECEIVER_DELAY_MS);
    const store = await openTestStore(kind, 'graceful', receiver.url);
    const port = await freePort();
    const key = store.merchant.testKey;
    // Keeps its connections open after each answer for a minute, as a browser may.
    const keepAliveAgent = new Agent({ keepAlive: true, timeout: 60_000 });
    let server: ServerProcess | undefined;
    try {
      server = await startServer(port, { ...store.env, WEBHOOK_INTERVAL_MS: '100', SWEEP_INTERVAL_SECONDS: '1' });
      const base = server.base;
      const api = merchantApi(key, 60_000);

      // Payments taken to the OTP step, to confirm while the server stops.
      const atOtp = await Promise.all(
        Array.from({ length: IN_FLIGHT_CONFIRMS }, async (_, i) => {
          const { body } = await api.initiate(base);
          const browser = payerBrowser(60_000);
          await browser.open(base, body.pidx);
          const otpPage = await browser.wallet(() => base, body.pidx, SANDBOX_WALLETS[i % SANDBOX_WALLETS.length]);
          expect(otpPage.body).toContain('name="otp"');
          return { pidx: body.pidx, form: browser.confirmForm('987654') };
        }),
      );
      // One paid payment, so a webhook delivery is under way (the receiver holds it 3 s) at SIGTERM.
      const { body: first } = await api.initiate(base);
      expect(callbackOf(await payOnPortal(() => base, first.pidx, SANDBOX_WALLETS[0], 60_000))?.status).toBe('Completed');
      await waitFor('a webhook delivery to arrive', () => (receiver.arrived.length > 0 ? true : undefined), 30_000, 20);

      const initiates = Array.from({ length: IN_FLIGHT_INITIATES }, (_, i) =>
        heldPost(
          keepAliveAgent,
          `${base}/api/v2/epayment/initiate/`,
          { authorization: `Key ${key}`, 'content-type': 'application/json', 'x-request-id': `inflight-initiate-${i}` },
          JSON.stringify(validInitiate()),
        ),
      );
      const confirms = atOtp.map(({ pidx, form }, i) =>
        heldPost(
          keepAliveAgent,
          `${base}/pay/${pidx}/confirm`,
          { 'content-type': 'application/x-www-form-urlencoded', cookie: form.cookie, 'x-request-id': `inflight-confirm-${i}` },
          new URLSearchParams(form.fields).toString(),
        ),
      );
      const ids = [
        ...Array.from({ length: IN_FLIGHT_INITIATES }, (_, i) => `inflight-initiate-${i}`),
        ...Array.from({ length: IN_FLIGHT_CONFIRMS }, (_, i) => `inflight-confirm-${i}`),
      ];
      // Every one of them has reached the server (it logged it as incoming): now they are in flight.
      await waitFor('the requests to reach the server', () => (ids.every((id) => server!.output().includes(`"reqId":"${id}"`)) ? true : undefined), 60_000, 5);
      const unfinishedAtSigterm = ids.filter((id) => logged(server!, 'request completed', id) === 0).length;
      const deliveriesUnderWay = receiver.holding();
      const stopping = server.terminate(30_000);

      // Half the bodies arrive while the jobs stop, the other half once Fastify is closing.
      const half = Math.floor(initiates.length / 2);
      for (const held of [...initiates.slice(0, half), ...confirms.slice(0, 4)]) held.finish();
      await waitFor('the jobs to stop', () => (server!.notableLines().some((l) => l.msg === 'background jobs stopped') ? true : undefined), 30_000, 10);
      await sleep(300);
      for (const held of [...initiates.slice(half), ...confirms.slice(4)]) held.finish();

      const [initiated, confirmed, exit] = await Promise.all([
        Promise.all(initiates.map((h) => h.answer)),
        Promise.all(confirms.map((h) => h.answer)),
        stopping,
      ]);
      const output = server.output();
      expect(initiated.map((r) => r.status), output.slice(-3000)).toStrictEqual(initiated.map(() => 200));
      expect(confirmed.map((r) => r.status)).toStrictEqual(confirmed.map(() => 303));
      expect(confirmed.map((r) => new URL(r.location).searchParams.get('status'))).toStrictEqual(confirmed.map(() => 'Completed'));
      // Exited by itself within terminate's deadline (past it the process is killed: a signal, not 0).
      expect(exit).toMatchObject({ code: 0, signal: null });
      const stages = server.notableLines().filter((l) => ['stopping', 'background jobs stopped', 'stopped'].includes(l.msg as string));
      expect(stages.map((l) => l.msg)).toStrictEqual(['stopping', 'background jobs stopped', 'stopped']);
      const [jobsMs, closeMs] = [(stages[1].time as number) - (stages[0].time as number), (stages[2].time as number) - (stages[1].time as number)];
      const errors = server.notableLines().filter((l) => (l.level as number) >= 50);
      expect(errors).toStrictEqual([]);
      // Deliveries under way were finished and recorded: none is left leased (events of the confirms
      // made during the stop wait, unleased, for the next start).
      await store.inspect(async (db) => {
        expect(await db.query(`SELECT event_id, status, locked_until FROM webhook_deliveries WHERE locked_until IS NOT NULL`)).toStrictEqual([]);
        expect(await db.query(`SELECT status FROM webhook_deliveries WHERE pidx = $1`, [first.pidx])).toStrictEqual([{ status: 'delivered' }]);
        const pidxs = initiated.map((r) => (JSON.parse(r.body) as { pidx: string }).pidx);
        const found = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM payments WHERE pidx = ANY($1)', [pidxs]);
        expect(found[0].n).toBe(pidxs.length);
        const paid = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM payments WHERE pidx = ANY($1) AND status = 'Completed'`, [atOtp.map((p) => p.pidx)]);
        expect(paid[0].n).toBe(IN_FLIGHT_CONFIRMS);
      });
      console.log(
        `graceful shutdown on ${kind}: ${ids.length} requests in flight at SIGTERM, ${unfinishedAtSigterm} not yet answered, ${deliveriesUnderWay} webhook deliveries under way; ` +
          `exit 0 after ${exit.ms} ms: jobs stopped in ${jobsMs} ms (the webhook receiver holds a delivery ${RECEIVER_DELAY_MS} ms), ` +
          `requests answered and store closed in ${closeMs} ms`,
      );
    } finally {
      keepAliveAgent.destroy();
      await server?.kill();
      await receiver.close();
      await store.remove();
    }
  }, 300_000);
});
