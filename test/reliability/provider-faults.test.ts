// A provider misbehaving (issue 26): Bhuktani pays through Khalti, with a second Bhuktani process as
// the upstream and a fault-injecting proxy between them that delays, drops, loses, cuts, duplicates
// and corrupts the upstream's answers; the upstream is killed and started again mid-payment. Payers
// pay, cancel, abandon, pay twice through two attempts. After every round, once the faults stop and
// the reconciliation job has run: every payment the payer paid upstream is Completed exactly once
// downstream, none that was not paid is, every second success is refunded upstream, and
// `ledger verify` passes on both sides.
//
// Fast (every CI run): 2 rounds of 5 payments. RELIABILITY_LONG=1: 8 rounds of 10.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_ACTOR } from '../../src/audit/audit-entry.js';
import { verifyLedger } from '../../src/ledger/verify-ledger.js';
import { paymentPath } from '../../src/payments/payment-url.js';
import { stepAction } from '../../src/portal/checkout-address.js';
import { setProvider } from '../../src/providers/provider-setup.js';
import { validInitiate } from '../api-client.js';
import { payerBrowser } from '../portal-client.js';
import { payUpstream } from '../upstream-payer.js';
import { handoffLink } from '../provider-payer.js';
import { faults, type Fault } from './fault-proxy.js';
import { expectPaidExactlyOnce, reconcileUntilQuiet, seededRandom, startFaultyUpstream, type FaultyUpstream } from './faulty-upstream.js';

const LONG = process.env.RELIABILITY_LONG === '1';
const ROUNDS = LONG ? 8 : 2;
const PAYMENTS = LONG ? 10 : 5;

const { seed, random } = seededRandom();
let h: FaultyUpstream;

beforeAll(async () => {
  h = await startFaultyUpstream({ random });
  await setProvider(h.t.ctx, { actor: CLI_ACTOR, name: 'khalti', environment: 'test', values: { base_url: h.proxy.base, secret_key: h.upstreamKey } });
}, 180_000);
afterAll(() => h?.close());

const local = (url: string) => url.replace(h.t.ctx.config.publicUrl, '');
const someFault = (): Fault => (random() < 0.35 ? 'none' : faults[1 + Math.floor(random() * (faults.length - 1))]);

async function upstreamStatus(pidx: string): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${h.port}/api/v2/epayment/lookup/`, { method: 'POST', headers: { authorization: `Key ${h.upstreamKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ pidx }) });
  return ((await response.json()) as { status: string }).status;
}

type Plan = 'pay' | 'cancel' | 'abandon' | 'pay-and-leave' | 'pay-twice' | 'killed-mid-payment';

/** One payer; resolves when the payer is done (whatever Bhuktani answered). */
async function payer(plan: Plan): Promise<string> {
  const { body } = await h.api.initiate(validInitiate({ amount: 1000 + Math.floor(random() * 9000) }));
  const pidx = body.pidx as string;
  const browser = payerBrowser(h.t.app);
  const start = async () => {
    for (let tries = 0; tries < 6; tries++) {
      await browser.get(paymentPath(pidx));
      const chosen = await browser.post(stepAction('provider', pidx), { provider: 'khalti' });
      const link = handoffLink(chosen.body);
      if (link) return link;
    }
    return undefined;
  };
  const paymentUrl = await start();
  if (!paymentUrl || plan === 'abandon') return pidx;
  if (plan === 'cancel') {
    await browser.get(local(await payUpstream(paymentUrl, 'cancel')));
    return pidx;
  }
  if (plan === 'pay-twice') {
    const second = await start();
    const firstBack = await payUpstream(paymentUrl, 'pay');
    if (second) await browser.get(local(await payUpstream(second, 'pay')));
    await browser.get(local(firstBack));
    return pidx;
  }
  const back = await payUpstream(paymentUrl, 'pay');
  if (plan === 'pay-and-leave') return pidx;
  // Killed mid-payment: paid upstream, the upstream dies before Bhuktani asks it, and comes back later.
  await h.comeBack(browser, back, { killFirst: plan === 'killed-mid-payment' });
  return pidx;
}

describe(`Khalti through a faulty network and a dying upstream (seed ${seed})`, () => {
  it(`keeps every payment exactly once, ${ROUNDS} rounds of ${PAYMENTS} payments`, async () => {
    for (let round = 1; round <= ROUNDS; round++) {
      h.proxy.setFaults(someFault);
      const plans: Plan[] = ['pay-twice', 'killed-mid-payment', ...Array.from({ length: PAYMENTS - 2 }, () => (['pay', 'pay', 'cancel', 'abandon', 'pay-and-leave'] as const)[Math.floor(random() * 5)])];
      const pidxs: string[] = [];
      for (const plan of plans) pidxs.push(await payer(plan));

      // The faults stop; the reconciliation job runs until nothing is left to ask about.
      h.proxy.setFaults(() => 'none');
      await reconcileUntilQuiet(h.t, pidxs);
      for (const pidx of pidxs) {
        await expectPaidExactlyOnce(h, pidx, `round ${round}`, {
          paidUpstream: async (a) => a.pidx_there !== null && ['Completed', 'Refunded', 'Partially refunded'].includes(await upstreamStatus(a.pidx_there)),
          owedBack: async (a) => (await upstreamStatus(a.pidx_there!)) === 'Refunded',
        });
      }
      expect((await verifyLedger(h.t.db)).filter((r) => !r.holds), `round ${round}`).toEqual([]);
      // The upstream's own ledger, proven by its CLI.
      const verified = await h.verifyLedger();
      expect(verified.code, verified.output).toBe(0);
    }
    expect(Object.values(h.proxy.counts).reduce((a, b) => a + b, 0)).toBeGreaterThan(ROUNDS * PAYMENTS);
  }, (LONG ? 8 : 2) * 240_000);
});
