// What the provider fault suites share (Khalti in provider-faults.test.ts, Fonepay in
// fonepay-faults.test.ts): a second Bhuktani process as the upstream, on a data directory of its own
// with one merchant; the fault proxy between it and a downstream Bhuktani on a store of its own; a
// seeded random, so a failed run can be replayed (PROVIDER_FAULTS_SEED); and, once the faults stop,
// the reconciliation job run until nothing is left to ask, then the checks every payment must pass.
import { expect } from 'vitest';
import { reconcileAttempts } from '../../src/provider-payments/reconcile-attempts.js';
import { merchantApi } from '../api-client.js';
import { freePort, runCli, tempDir } from '../processes.js';
import { newMerchant, startTestApp, type TestApp } from '../test-app.js';
import { startFaultProxy, type FaultProxy, type Forgery } from './fault-proxy.js';
import { startServer, type ServerProcess } from './server-process.js';

/** How long the downstream waits for the upstream; a delayed answer comes after twice that. */
export const TIMEOUT_MS = 800;

/** mulberry32: a seeded random, so a failed run can be replayed (PROVIDER_FAULTS_SEED). */
export function seededRandom(): { seed: number; random: () => number } {
  let state = Number(process.env.PROVIDER_FAULTS_SEED ?? Date.now() % 1_000_000);
  const seed = state;
  const random = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { seed, random };
}

export interface FaultyUpstream {
  /** The upstream's port, for asking it directly (past the proxy). */
  port: number;
  /** The upstream merchant's test secret key (what a Khalti set-up takes). */
  upstreamKey: string;
  proxy: FaultProxy;
  /** The downstream Bhuktani, in process. */
  t: TestApp;
  /** A merchant of the downstream. */
  api: ReturnType<typeof merchantApi>;
  /** SIGKILL: the upstream dies mid-payment. */
  kill(): Promise<void>;
  start(): Promise<void>;
  /**
   * The payer's browser follows the provider's return `back` (an address of the downstream). With
   * `killFirst`, paid upstream, the upstream dies before the downstream asks it and comes back after.
   */
  comeBack(browser: { get(path: string): Promise<unknown> }, back: string, options: { killFirst: boolean }): Promise<void>;
  /** Stops the upstream, proves its ledger with its CLI, starts it again (unless told): the CLI's answer. */
  verifyLedger(options?: { startAgain: boolean }): Promise<{ code: number | null; output: string }>;
  close(): Promise<void>;
}

export async function startFaultyUpstream(options: { random: () => number; forge?: Forgery }): Promise<FaultyUpstream> {
  const dir = tempDir('bhuktani-provider-faults-');
  const created = await runCli(['merchant', 'create', '--name', 'Downstream', '--email', 'ops@example.com', '--password', 'correct horse battery', '--json'], { DATA_DIR: dir.path });
  const upstreamKey = JSON.parse(created.stdout).test_secret_key as string;
  const port = await freePort();
  let upstream: ServerProcess | undefined;
  const start = async () => {
    upstream = await startServer(port, { DATA_DIR: dir.path });
  };
  await start();
  const proxy = await startFaultProxy({ upstreamPort: port, delayMs: TIMEOUT_MS * 2, random: options.random, forge: options.forge });
  // A store of its own; the limits high enough that faults alone never hand an attempt to the
  // operators nor take the provider off the hosted page.
  const t = await startTestApp({ ownDb: true, config: { providerTimeoutMs: TIMEOUT_MS, providerReconcileIntervalSeconds: 1, providerReconcileLimit: 1000, providerFailureLimit: 1000 } });
  const api = merchantApi(t.app, (await newMerchant(t.ctx)).test_secret_key);
  return {
    port,
    upstreamKey,
    proxy,
    t,
    api,
    start,
    kill: async () => {
      await upstream?.kill();
    },
    async comeBack(browser, back, { killFirst }) {
      if (killFirst) await upstream?.kill();
      await browser.get(back.replace(t.ctx.config.publicUrl, ''));
      if (killFirst) await start();
    },
    async verifyLedger({ startAgain } = { startAgain: true }) {
      await upstream?.terminate();
      const verified = await runCli(['ledger', 'verify', '--json'], { DATA_DIR: dir.path });
      if (startAgain) await start();
      return { code: verified.code, output: verified.stdout + verified.stderr };
    },
    async close() {
      await proxy.close();
      await upstream?.kill();
      await t.close();
      dir.remove();
    },
  };
}

/**
 * The faults stopped: the reconciliation job runs until no attempt of `pidxs` is open and no refund
 * is due at a provider (a refund queued for the operators waits for them, not for the job).
 */
export async function reconcileUntilQuiet(t: TestApp, pidxs: string[]): Promise<void> {
  for (let run = 0; run < 40; run++) {
    const [open] = await t.db.query<{ n: number }>("SELECT count(*)::int AS n FROM provider_attempts WHERE pidx = ANY($1) AND state IN ('Started', 'Unknown', 'Escalated')", [pidxs]);
    const [due] = await t.db.query<{ n: number }>("SELECT count(*)::int AS n FROM provider_refunds WHERE state = 'Queued' AND next_try_at IS NOT NULL");
    if (open.n === 0 && due.n === 0) return;
    t.clock.advance(open.n ? 1200 : 120);
    await reconcileAttempts(t.ctx);
  }
}

export interface SettledAttempt {
  idx: string;
  state: string;
  /** Khalti's pidx, when the attempt has one. */
  pidx_there: string | null;
  last_answer: string;
}

/**
 * After reconciliation: every attempt settled; the payment Completed exactly when some attempt was
 * paid upstream (`paidUpstream`), from exactly one attempt; the money in (Paid or Surplus) exactly
 * where it was paid upstream; every Surplus owed back (`owedBack`: refunded, or queued for the operators).
 * The payment's status.
 */
export async function expectPaidExactlyOnce(
  h: Pick<FaultyUpstream, 't' | 'api'>,
  pidx: string,
  label: string,
  checks: { paidUpstream(attempt: SettledAttempt): Promise<boolean>; owedBack(attempt: SettledAttempt): Promise<boolean> },
): Promise<string> {
  const attempts = await h.t.db.query<SettledAttempt>("SELECT idx, state, provider_reference->>'pidx' AS pidx_there, last_answer FROM provider_attempts WHERE pidx = $1 ORDER BY id", [pidx]);
  const upstreamPaid: boolean[] = [];
  for (const a of attempts) upstreamPaid.push(await checks.paidUpstream(a));
  const status = (await h.api.lookup(pidx)).body.status;
  const context = `${label}, payment ${pidx} (${status}): ${JSON.stringify(attempts.map((a, i) => [a.idx, a.state, upstreamPaid[i], a.last_answer]))}`;
  expect(attempts.every((a) => ['Paid', 'Surplus', 'Failed'].includes(a.state)), context).toBe(true);
  expect(status === 'Completed', context).toBe(upstreamPaid.some(Boolean));
  expect(attempts.filter((a) => a.state === 'Paid').length, context).toBe(status === 'Completed' ? 1 : 0);
  attempts.forEach((a, i) => expect(a.state === 'Paid' || a.state === 'Surplus', context).toBe(upstreamPaid[i]));
  for (const a of attempts) if (a.state === 'Surplus') expect(await checks.owedBack(a), context).toBe(true);
  return status;
}
