import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { merchantApi, refund, validInitiate } from '../../test/api-client.js';
import { callbackParams, payerBrowser } from '../../test/portal-client.js';
import { newMerchant, startTestApp, type TestApp } from '../../test/test-app.js';
import { webhookReceiver } from '../../test/webhook-receiver.js';
import { verifyCallback, verifyWebhook } from '../client/signatures.js';
import { expirySweep } from '../jobs/expiry-sweep.js';
import { runPayoutRails } from '../jobs/payout-rails-job.js';
import { applyPayoutMove } from '../settlements/move-payout.js';
import { requestPayout } from '../settlements/request-payout.js';
import { signingSecret } from '../merchants/signing-secret.js';
import { webhookSender } from './webhook-sender.js';
import { setWebhookEndpoint } from './webhook-store.js';

let t: TestApp;
let receiver: Awaited<ReturnType<typeof webhookReceiver>>;

beforeAll(async () => {
  t = await startTestApp({ ownDb: true }); // its sender and sweep act on the whole store
  receiver = await webhookReceiver();
});
afterAll(async () => {
  await receiver.close();
  await t.close();
});

async function merchantWithEndpoint() {
  const created = await newMerchant(t.ctx);
  await setWebhookEndpoint(t.db, created.merchant.id, 'test', receiver.url, t.clock.now());
  return { ...created, api: merchantApi(t.app, created.test_secret_key), secret: await signingSecret(t.db, created.merchant.id, 'test') };
}

const sender = () => webhookSender(t.ctx, { onError: (error) => { throw error; } });
const eventsFor = (pidx: string) => receiver.received.map((r) => JSON.parse(r.body)).filter((e) => e.data.pidx === pidx);

describe('signed callbacks', () => {
  it('carry a signature the client verifies, and a tampered one fails', async () => {
    const m = await merchantWithEndpoint();
    const { body } = await m.api.initiate();
    const done = await payerBrowser(t.app).pay(body.pidx);
    const params = callbackParams(done.location!);
    expect(params.signature).toMatch(/^[0-9a-f]{64}$/);
    expect(verifyCallback(params, m.secret)).toBe(true);
    expect(verifyCallback({ ...params, amount: '1' }, m.secret)).toBe(false);
    expect(verifyCallback(params, 'whsec_wrong')).toBe(false);
  });

  it("carry txnId outside the signed message: a client written before it verifies them unchanged; the client refuses a txnId other than transaction_id", async () => {
    // No endpoint: no webhook of these payments waits for the tests below.
    const created = await newMerchant(t.ctx);
    const m = { api: merchantApi(t.app, created.test_secret_key), secret: await signingSecret(t.db, created.merchant.id, 'test') };
    // The verification docs/integrations.md described before txnId, by hand: the nine parameters in order.
    const signedBefore = ['pidx', 'transaction_id', 'tidx', 'amount', 'total_amount', 'mobile', 'status', 'purchase_order_id', 'purchase_order_name'];
    const verifiedBefore = (params: Record<string, string>) =>
      createHmac('sha256', m.secret).update(signedBefore.map((name) => `${name}=${encodeURIComponent(params[name])}`).join('&')).digest('hex') === params.signature;
    const paid = callbackParams((await payerBrowser(t.app).pay((await m.api.initiate()).body.pidx)).location!);
    const canceledPidx = (await m.api.initiate()).body.pidx;
    const canceler = payerBrowser(t.app);
    await canceler.open(canceledPidx);
    const canceled = callbackParams((await canceler.cancel(canceledPidx)).location!);
    expect([paid.txnId, canceled.txnId]).toEqual([paid.transaction_id, '']);
    expect(paid.txnId).toMatch(/^[\w-]{22}$/);
    for (const params of [paid, canceled]) {
      expect(verifiedBefore(params)).toBe(true);
      expect(verifyCallback(params, m.secret)).toBe(true);
      expect(verifyCallback({ ...params, txnId: 'someone-elses-transaction' }, m.secret)).toBe(false);
    }
    expect(verifyCallback({ ...paid, txnId: '' }, m.secret)).toBe(false);
    // A callback without txnId (one rebuilt by hand, or saved before) still verifies.
    const { txnId: _, ...withoutTxnId } = paid;
    expect(verifyCallback(withoutTxnId, m.secret)).toBe(true);
  });
});

describe('webhooks', () => {
  it('delivers payment.completed and refund.completed, signed, once each', async () => {
    const m = await merchantWithEndpoint();
    const { body } = await m.api.initiate(validInitiate({ amount: 2000 }));
    const done = await payerBrowser(t.app).pay(body.pidx);
    await refund(t.app, m.test_secret_key, callbackParams(done.location!).transaction_id, { amount: 500 });
    await sender().runOnce();
    const events = eventsFor(body.pidx);
    expect(events.map((e) => e.type)).toEqual(['payment.completed', 'refund.completed']);
    expect(events[0]).toMatchObject({ environment: 'test', data: { pidx: body.pidx, status: 'Completed', total_amount: 2000 } });
    expect(events[1].data).toMatchObject({ status: 'Partially refunded', refund_amount: 500, refunded_amount: 500 });
    expect(events[0].id).toMatch(/^evt_[0-9a-f]{32}$/);
    for (const r of receiver.received.filter((r) => JSON.parse(r.body).data.pidx === body.pidx)) {
      expect(verifyWebhook(r.body, r.headers['bhuktani-signature'] as string, m.secret, { now: t.clock.now() })).toBe(true);
      expect(verifyWebhook(r.body.replace('2000', '2001'), r.headers['bhuktani-signature'] as string, m.secret, { now: t.clock.now() })).toBe(false);
    }
    await sender().runOnce();
    expect(eventsFor(body.pidx)).toHaveLength(2);
  });

  it('retries after a 500 with back-off, then delivers', async () => {
    const m = await merchantWithEndpoint();
    const { body } = await m.api.initiate();
    const browser = payerBrowser(t.app);
    await browser.open(body.pidx);
    await browser.cancel(body.pidx);
    receiver.answerWith(500);
    await sender().runOnce();
    expect(eventsFor(body.pidx).map((e) => e.type)).toEqual(['payment.canceled']);
    receiver.answerWith(200);
    await sender().runOnce(); // not due yet
    expect(eventsFor(body.pidx)).toHaveLength(1);
    t.clock.advance(11);
    await sender().runOnce();
    expect(eventsFor(body.pidx)).toHaveLength(2);
    const [row] = await t.db.query<{ status: string; attempts: number; last_status: number }>(
      'SELECT status, attempts, last_status FROM webhook_deliveries WHERE pidx = $1',
      [body.pidx],
    );
    expect(row).toEqual({ status: 'delivered', attempts: 2, last_status: 200 });
  });

  it('sends payment.expired from the sweep, and nothing for merchants without an endpoint', async () => {
    const m = await merchantWithEndpoint();
    const silent = await newMerchant(t.ctx);
    const { body } = await m.api.initiate();
    const other = await merchantApi(t.app, silent.test_secret_key).initiate();
    t.clock.advance(3601);
    await expirySweep(t.ctx, (e) => { throw e; }).runOnce();
    await sender().runOnce();
    expect(eventsFor(body.pidx).map((e) => e.type)).toEqual(['payment.expired']);
    expect(eventsFor(other.body.pidx)).toEqual([]);
  });

  it('two senders at once deliver each event once', async () => {
    const m = await merchantWithEndpoint();
    const pidxs: string[] = [];
    for (let i = 0; i < 5; i++) {
      const { body } = await m.api.initiate();
      await payerBrowser(t.app).pay(body.pidx);
      pidxs.push(body.pidx);
    }
    await Promise.all([sender().runOnce(), sender().runOnce(), sender().runOnce()]);
    for (const pidx of pidxs) expect(eventsFor(pidx)).toHaveLength(1);
  });

  it('refuses private addresses for live events unless configured', async () => {
    const live = await startTestApp({ db: t.db, config: { webhookPrivateAddresses: 'test' } });
    try {
      const created = await newMerchant(live.ctx);
      await setWebhookEndpoint(live.db, created.merchant.id, 'live', receiver.url, live.clock.now());
      await setWebhookEndpoint(live.db, created.merchant.id, 'test', receiver.url, live.clock.now());
      const api = merchantApi(live.app, created.live_secret_key);
      const { body } = await api.initiate();
      await live.db.query(`UPDATE payments SET expires_at = now() - interval '1 second' WHERE pidx = $1`, [body.pidx]);
      await expirySweep(live.ctx, (e) => { throw e; }).runOnce();
      await webhookSender(live.ctx, { onError: (e) => { throw e; } }).runOnce();
      expect(eventsFor(body.pidx)).toEqual([]);
      const [row] = await live.db.query<{ status: string; last_error: string }>('SELECT status, last_error FROM webhook_deliveries WHERE pidx = $1', [body.pidx]);
      expect(row.status).toBe('pending');
      expect(row.last_error).toContain('private address');
    } finally {
      await live.close();
    }
  });
});

describe('payout webhooks', () => {
  it("payout.paid from NPI's simulator and payout.failed from the operator, signed, each once", async () => {
    const m = await merchantWithEndpoint();
    const { body } = await m.api.initiate(validInitiate({ amount: 10_000 }));
    await payerBrowser(t.app).pay(body.pidx);
    const owner = { merchantId: m.merchant.id, environment: 'test' as const };
    const paid = await requestPayout(t.ctx, { ...owner, amount: 6_000, requestedBy: 'api' });
    const failed = await requestPayout(t.ctx, { ...owner, amount: 1_000, requestedBy: 'api' });
    // Operators mark live payouts only; the ledger's own move (under their marks) fails this test one.
    await t.db.transaction((tx) => applyPayoutMove(t.ctx, tx, failed, { name: 'fail', reason: 'Account closed' }, t.clock.now()));
    await runPayoutRails(t.ctx); // NPI's simulator: Processing (no event), then Paid
    await sender().runOnce();
    const events = receiver.received.map((r) => ({ raw: r, event: JSON.parse(r.body) })).filter(({ event }) => [paid.idx, failed.idx].includes(event.data.idx));
    expect(events.map(({ event }) => [event.type, event.data.idx])).toEqual([
      ['payout.failed', failed.idx],
      ['payout.paid', paid.idx],
    ]);
    expect(events[0].event.data).toMatchObject({ state: 'Failed', amount: 1_000, failure_reason: 'Account closed', bank_reference: null });
    expect(events[1].event.data).toMatchObject({ state: 'Paid', amount: 6_000, bank_reference: expect.stringMatching(`^NPI connectIPS R\\w+/${paid.idx} `), failure_reason: null });
    for (const { raw } of events) expect(verifyWebhook(raw.body, raw.headers['bhuktani-signature'] as string, m.secret, { now: t.clock.now() })).toBe(true);
    await runPayoutRails(t.ctx);
    await sender().runOnce();
    expect(receiver.received.filter((r) => [paid.idx, failed.idx].includes(JSON.parse(r.body).data.idx))).toHaveLength(2);
  });
});
