// The Khalti connector against a second Bhuktani process as its upstream: a
// Bhuktani speaks the v2 web checkout exactly as Khalti does, so it is a faithful Khalti for tests.
// The payer picks Khalti downstream, pays on the upstream's hosted page with its sandbox wallet,
// comes back; downstream completes only on the upstream's lookup. Refunds go through its refund API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_ACTOR } from '../../audit/audit-entry.js';
import { verifyLedger } from '../../ledger/verify-ledger.js';
import { paymentPath } from '../../payments/payment-url.js';
import { stepAction } from '../../portal/checkout-address.js';
import { merchantApi, refund, validInitiate } from '../../../test/api-client.js';
import { callbackParams, payerBrowser } from '../../../test/portal-client.js';
import type { ServerProcess } from '../../../test/reliability/server-process.js';
import { startFaultProxy, type FaultProxy } from '../../../test/reliability/fault-proxy.js';
import { payUpstream, startUpstreamBhuktani } from '../../../test/upstream-payer.js';
import { handoffLink } from '../../../test/provider-payer.js';
import { newMerchant, startTestApp, type TestApp } from '../../../test/test-app.js';
import { setProvider } from '../provider-setup.js';
import { reconcileAttempts } from '../../provider-payments/reconcile-attempts.js';

const PROCESS_TIMEOUT = 120_000;
let second: Awaited<ReturnType<typeof startUpstreamBhuktani>>;
let upstream: ServerProcess;
let upstreamKey: string;
let t: TestApp;
let key: string;
let api: ReturnType<typeof merchantApi>;
/** Fault-injecting proxies in front of the upstream: one answering as Khalti publishes it does (no Idempotency-Key, no refunded_amount), one as Bhuktani. */
let asKhalti: FaultProxy;
let plain: FaultProxy;

beforeAll(async () => {
  second = await startUpstreamBhuktani('bhuktani-khalti-upstream-');
  upstream = second.server;
  upstreamKey = second.merchant.test_secret_key;
  t = await startTestApp({ ownDb: true, config: { providerTimeoutMs: 5000 } });
  await setProvider(t.ctx, { actor: CLI_ACTOR, name: 'khalti', environment: 'test', values: { base_url: upstream.base, secret_key: upstreamKey } });
  key = (await newMerchant(t.ctx)).test_secret_key;
  api = merchantApi(t.app, key);
  const port = Number(new URL(upstream.base).port);
  asKhalti = await startFaultProxy({ upstreamPort: port, delayMs: 0, random: Math.random, asKhalti: true });
  plain = await startFaultProxy({ upstreamPort: port, delayMs: 0, random: Math.random });
}, PROCESS_TIMEOUT);
afterAll(async () => {
  await asKhalti?.close();
  await plain?.close();
  await second?.stop();
  await t?.close();
});

/** The payer on the downstream hosted page presses Khalti; the upstream's payment_url it is sent to. */
async function chooseKhalti(pidx: string) {
  const browser = payerBrowser(t.app);
  await browser.get(paymentPath(pidx));
  const chosen = await browser.post(stepAction('provider', pidx), { provider: 'khalti' });
  expect(chosen.status).toBe(200);
  return { browser, paymentUrl: handoffLink(chosen.body)! };
}

const local = (url: string) => url.replace(t.ctx.config.publicUrl, '');

describe('Khalti, with a second Bhuktani as the upstream', () => {
  it(
    'pays on the upstream’s page and completes downstream on its lookup; the refund goes through its refund API',
    async () => {
      const { body } = await api.initiate(validInitiate({ amount: 2500 }));
      const { browser, paymentUrl } = await chooseKhalti(body.pidx);
      expect(paymentUrl.startsWith(`${upstream.base}/pay/?pidx=`)).toBe(true);
      const returnUrl = await payUpstream(paymentUrl, 'pay');
      expect(returnUrl.startsWith(`${t.ctx.config.publicUrl}/pay/return/khalti/`)).toBe(true);
      const back = await browser.get(local(returnUrl));
      expect(callbackParams(handoffLink(back.body)!)).toMatchObject({ pidx: body.pidx, status: 'Completed', amount: '2500' });
      expect((await api.lookup(body.pidx)).body.status).toBe('Completed');
      const list = await api.transactions({ purchase_order_id: body.purchase_order_id ?? (await api.lookup(body.pidx)).body.purchase_order_id });
      expect(list.body.records[0].type.name).toBe('Khalti payment');

      const [attempt] = await t.db.query<{ provider_reference: string; provider_transaction_id: string }>("SELECT provider_reference->>'pidx' AS provider_reference, provider_transaction_id FROM provider_attempts WHERE pidx = $1 AND state = 'Paid'", [body.pidx]);
      expect(await refund(t.app, key, callbackParams(handoffLink(back.body)!).transaction_id, { amount: 1000 })).toMatchObject({ status: 200 });
      await reconcileAttempts(t.ctx);
      const upstreamLookup = await fetch(`${upstream.base}/api/v2/epayment/lookup/`, { method: 'POST', headers: { authorization: `Key ${upstreamKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ pidx: attempt.provider_reference }) });
      expect(await upstreamLookup.json()).toMatchObject({ status: 'Partially refunded', refunded_amount: 1000, transaction_id: attempt.provider_transaction_id });
      expect((await verifyLedger(t.db)).filter((r) => !r.holds)).toEqual([]);
    },
    PROCESS_TIMEOUT,
  );

  it(
    'leaves the payment payable when the payer cancels upstream',
    async () => {
      const { body } = await api.initiate(validInitiate());
      const { browser, paymentUrl } = await chooseKhalti(body.pidx);
      const back = await browser.get(local(await payUpstream(paymentUrl, 'cancel')));
      expect(back.location).toBe(`${paymentPath(body.pidx)}&notice=provider_not_paid`);
      expect((await api.lookup(body.pidx)).body.status).toBe('Initiated');
      const [attempt] = await t.db.query<{ state: string }>('SELECT state FROM provider_attempts WHERE pidx = $1', [body.pidx]);
      expect(attempt.state).toBe('Failed');
    },
    PROCESS_TIMEOUT,
  );

  it(
    'never completes on a return whose upstream payment was not paid, whatever the return says',
    async () => {
      const { body } = await api.initiate(validInitiate());
      const { browser, paymentUrl } = await chooseKhalti(body.pidx);
      const [attempt] = await t.db.query<{ idx: string }>('SELECT idx FROM provider_attempts WHERE pidx = $1', [body.pidx]);
      const upstreamPidx = new URL(paymentUrl).searchParams.get('pidx')!;
      // A forged return: the status and amounts of a success, for a payment nobody paid upstream.
      const forged = await browser.get(`/pay/return/khalti/${attempt.idx}/success?pidx=${upstreamPidx}&status=Completed&transaction_id=FORGED&amount=1000&total_amount=1000`);
      // The upstream says Initiated: the claim holds nothing, the payer is back on the hosted page,
      // told Khalti has not confirmed it (as a payer who did pay, and returned early, would be).
      expect(forged.location).toBe(`${paymentPath(body.pidx)}&notice=provider_checking`);
      expect((await api.lookup(body.pidx)).body.status).toBe('Initiated');
      // Once its time is up the attempt is closed, never paid.
      t.clock.advance(t.ctx.config.paymentTtlSeconds + 3600);
      await reconcileAttempts(t.ctx);
      expect((await api.lookup(body.pidx)).body.status).toBe('Expired');
      expect((await t.db.query<{ state: string }>('SELECT state FROM provider_attempts WHERE idx = $1', [attempt.idx]))[0].state).toBe('Failed');
      expect((await verifyLedger(t.db)).filter((r) => !r.holds)).toEqual([]);
    },
    PROCESS_TIMEOUT,
  );

  describe('a refund whose answer was lost is never asked for again blind', () => {
    /** A payment paid upstream through `proxy`, and what the upstream's own lookup says of its refunds. */
    async function paidThrough(proxy: FaultProxy, amount: number) {
      await setProvider(t.ctx, { actor: CLI_ACTOR, name: 'khalti', environment: 'test', values: { base_url: proxy.base, secret_key: upstreamKey } });
      proxy.setFaults(() => 'none');
      const { body } = await api.initiate(validInitiate({ amount }));
      const { browser, paymentUrl } = await chooseKhalti(body.pidx);
      const back = await browser.get(local(await payUpstream(paymentUrl, 'pay')));
      const { transaction_id: transactionId } = callbackParams(handoffLink(back.body)!);
      const [attempt] = await t.db.query<{ id: number; provider_reference: string }>("SELECT id, provider_reference->>'pidx' AS provider_reference FROM provider_attempts WHERE pidx = $1 AND state = 'Paid'", [body.pidx]);
      const upstreamRefunded = async () => {
        const answer = await fetch(`${upstream.base}/api/v2/epayment/lookup/`, { method: 'POST', headers: { authorization: `Key ${upstreamKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ pidx: attempt.provider_reference }) });
        return ((await answer.json()) as { refunded_amount: number }).refunded_amount;
      };
      const refunds = () => t.db.query<{ state: string; amount: number; next_try_at: Date | null; last_answer: string | null }>('SELECT state, amount, next_try_at, last_answer FROM provider_refunds WHERE attempt_id = $1 ORDER BY id', [attempt.id]);
      return { transactionId, upstreamRefunded, refunds };
    }

    /** The job runs while the proxy loses the refund requests' answers (the upstream acted), then again once it does not. */
    async function refundAnswerLost(proxy: FaultProxy, fault: 'lose' | 'drop' = 'lose') {
      proxy.setFaults(({ path }) => (path.includes('/refund/') ? fault : 'none'));
      await reconcileAttempts(t.ctx);
      proxy.setFaults(() => 'none');
      t.clock.advance(10 * t.ctx.config.providerReconcileIntervalSeconds);
      await reconcileAttempts(t.ctx);
    }

    it(
      'Khalti’s lookup says the lost refund was made: it is marked, and made exactly once upstream',
      async () => {
        const paid = await paidThrough(asKhalti, 2500);
        expect(await refund(t.app, key, paid.transactionId, { amount: 1000 })).toMatchObject({ status: 200 });
        await refundAnswerLost(asKhalti);
        expect(await paid.refunds()).toMatchObject([{ state: 'Refunded', amount: 1000 }]);
        expect(await paid.upstreamRefunded()).toBe(1000);
        // Later runs ask nothing more of it.
        t.clock.advance(3600);
        await reconcileAttempts(t.ctx);
        expect(await paid.upstreamRefunded()).toBe(1000);
        expect((await verifyLedger(t.db)).filter((r) => !r.holds)).toEqual([]);
      },
      PROCESS_TIMEOUT,
    );

    it(
      'Khalti’s lookup cannot tell (partly refunded before): the refund goes to the operators, made once upstream',
      async () => {
        const paid = await paidThrough(asKhalti, 3000);
        expect(await refund(t.app, key, paid.transactionId, { amount: 1000 })).toMatchObject({ status: 200 });
        await reconcileAttempts(t.ctx);
        expect(await refund(t.app, key, paid.transactionId, { amount: 500 })).toMatchObject({ status: 200 });
        await refundAnswerLost(asKhalti);
        const [first, second] = await paid.refunds();
        expect(first).toMatchObject({ state: 'Refunded', amount: 1000 });
        expect(second).toMatchObject({ state: 'Queued', amount: 500, next_try_at: null, last_answer: expect.stringContaining('cannot tell whether this refund was made') });
        expect(await paid.upstreamRefunded()).toBe(1500);
        t.clock.advance(3600);
        await reconcileAttempts(t.ctx);
        expect(await paid.upstreamRefunded()).toBe(1500);
        expect((await verifyLedger(t.db)).filter((r) => !r.holds)).toEqual([]);
      },
      PROCESS_TIMEOUT,
    );

    it(
      'the record says it was not made (the request never arrived): asked for once more after the quiet period, made once',
      async () => {
        const paid = await paidThrough(plain, 2000);
        expect(await refund(t.app, key, paid.transactionId)).toMatchObject({ status: 200 });
        await refundAnswerLost(plain, 'drop');
        // Not before the quiet period: until then the dropped request could still have been on its way.
        expect(await paid.refunds()).toMatchObject([{ state: 'Queued', amount: 2000 }]);
        expect(await paid.upstreamRefunded()).toBe(0);
        t.clock.advance(t.ctx.config.providerRefundQuietSeconds);
        await reconcileAttempts(t.ctx);
        expect(await paid.refunds()).toMatchObject([{ state: 'Refunded', amount: 2000 }]);
        expect(await paid.upstreamRefunded()).toBe(2000);
        expect((await verifyLedger(t.db)).filter((r) => !r.holds)).toEqual([]);
      },
      PROCESS_TIMEOUT,
    );
  });
});
