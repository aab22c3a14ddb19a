// Money owed back through providers: a merchant's refund of a provider payment
// goes through Khalti's refund API, or to the operators' queue for providers without one; a second
// success for one payment is never kept; an operator decides what the providers could not.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_ACTOR } from '../audit/audit-entry.js';
import { verifyLedger } from '../ledger/verify-ledger.js';
import { resolvePayment } from '../payments/resolve-payment.js';
import { merchantApi, refund, validInitiate } from '../../test/api-client.js';
import { callbackParams } from '../../test/portal-client.js';
import { formOf, providerPayer } from '../../test/provider-payer.js';
import { newMerchant, startTestApp, type TestApp } from '../../test/test-app.js';
import { markRefundedByOperator } from './provider-refunds.js';
import { listOperatorRefunds } from './provider-refund-store.js';
import { reconcileAttempts } from './reconcile-attempts.js';
import { descriptorOf, providerNames, type ProviderName } from '../providers/registry.js';

let t: TestApp;
let key: string;
let api: ReturnType<typeof merchantApi>;

beforeAll(async () => {
  // A store of its own: provider health and set-up are the whole store's.
  t = await startTestApp({ ownDb: true, config: { providerTimeoutMs: 300, providerReconcileIntervalSeconds: 1, providerReconcileLimit: 3 } });
  key = (await newMerchant(t.ctx)).test_secret_key;
  api = merchantApi(t.app, key);
});
afterAll(() => t.close());

const ledgerHolds = async () => expect((await verifyLedger(t.db)).filter((r) => !r.holds)).toEqual([]);

async function paidThrough(name: ProviderName, amount = 5000) {
  const { body } = await api.initiate(validInitiate({ amount }));
  const back = await providerPayer(t.app).pay(body.pidx, name, 'paid');
  return { pidx: body.pidx as string, transactionId: callbackParams(back.location!).transaction_id };
}

const refundsOf = (pidx: string) =>
  t.db.query<{ idx: string; state: string; reason: string; amount: number; next_try_at: Date | null }>(
    'SELECT r.idx, r.state, r.reason, r.amount, r.next_try_at FROM provider_refunds r JOIN provider_attempts a ON a.id = r.attempt_id WHERE a.pidx = $1 ORDER BY r.id',
    [pidx],
  );

describe('refunds of provider payments', () => {
  it('refunds a Khalti payment through Khalti’s refund API, in parts, with the merchant’s answer unchanged', async () => {
    const { pidx, transactionId } = await paidThrough('khalti');
    expect(await refund(t.app, key, transactionId, { amount: 2000 })).toEqual({ status: 200, body: { detail: 'Transaction refund successful.' } });
    expect((await refundsOf(pidx)).map((r) => r.state)).toEqual(['Queued']);
    await ledgerHolds();
    await reconcileAttempts(t.ctx);
    expect(await refund(t.app, key, transactionId)).toMatchObject({ status: 200 });
    await reconcileAttempts(t.ctx);
    expect((await refundsOf(pidx)).map((r) => [r.state, r.amount])).toEqual([
      ['Refunded', 2000],
      ['Refunded', 3000],
    ]);
    const [simulated] = await t.db.query<{ refunded: number }>("SELECT refunded FROM provider_simulations WHERE provider = 'khalti' AND transaction_id = (SELECT provider_transaction_id FROM provider_attempts WHERE pidx = $1)", [pidx]);
    expect(Number(simulated.refunded)).toBe(5000);
    expect((await api.lookup(pidx)).body.status).toBe('Refunded');
    await ledgerHolds();
  });

  it('refunds a Khalti payment made from a bank to the payer’s mobile (the customer’s phone given at initiate), as Khalti requires', async () => {
    const customer_info = { name: 'Sita Sharma', email: 'sita@example.com', phone: '+977 980-0000123' };
    const { body } = await api.initiate(validInitiate({ amount: 4000, customer_info }));
    const payer = providerPayer(t.app);
    const page = await payer.choose(body.pidx, 'khalti');
    const fromBank = [...page.body.matchAll(/<form method="post"[\s\S]*?<\/form>/g)].map((m) => m[0]).find((f) => f.includes('name="paid_from" value="bank"'))!;
    const { action, fields } = formOf(fromBank);
    const back = await payer.back((await payer.browser.post(action, fields)).location!);
    const { transaction_id: transactionId } = callbackParams(back.location!);
    const [simulated] = await t.db.query<{ details: Record<string, string> }>("SELECT details FROM provider_simulations WHERE provider = 'khalti' AND transaction_id = (SELECT provider_transaction_id FROM provider_attempts WHERE pidx = $1)", [body.pidx]);
    // Khalti was told whom it bills at initiate.
    expect(JSON.parse(simulated.details.customer_info)).toEqual(customer_info);
    expect(await refund(t.app, key, transactionId, { amount: 1500 })).toMatchObject({ status: 200 });
    await reconcileAttempts(t.ctx);
    expect((await refundsOf(body.pidx)).map((r) => r.state)).toEqual(['Refunded']);
    const [refunded] = await t.db.query<{ refunded: number; details: Record<string, string> }>("SELECT refunded, details FROM provider_simulations WHERE provider = 'khalti' AND transaction_id = (SELECT provider_transaction_id FROM provider_attempts WHERE pidx = $1)", [body.pidx]);
    expect({ refunded: Number(refunded.refunded), to: refunded.details.refunded_to }).toEqual({ refunded: 1500, to: '9800000123' });
    await ledgerHolds();
  });

  // Every provider without a refund API (eSewa, connectIPS, Fonepay), as the registry says.
  it.each(providerNames.filter((name) => !descriptorOf(name).refundsByApi))('queues a refund of a %s payment for the operators, who refund it there and mark it', async (name) => {
    const { pidx, transactionId } = await paidThrough(name);
    expect(await refund(t.app, key, transactionId)).toEqual({ status: 200, body: { detail: 'Transaction refund successful.' } });
    await reconcileAttempts(t.ctx);
    const [queued] = await refundsOf(pidx);
    expect(queued).toMatchObject({ state: 'Queued', next_try_at: null });
    expect((await listOperatorRefunds(t.db, 500)).map((r) => r.idx)).toContain(queued.idx);
    await ledgerHolds();
    await markRefundedByOperator(t.ctx, { actor: CLI_ACTOR, idx: queued.idx, reference: 'ESW-REF-1' });
    await expect(markRefundedByOperator(t.ctx, { actor: CLI_ACTOR, idx: queued.idx, reference: 'again' })).rejects.toThrow(/already/);
    expect((await refundsOf(pidx))[0].state).toBe('Refunded');
    await ledgerHolds();
  });
});

describe('a second success for one payment', () => {
  it('completes the payment from the first attempt paid and refunds the second through Khalti', async () => {
    const { body } = await api.initiate(validInitiate({ amount: 1200 }));
    const pidx = body.pidx as string;
    const payer = providerPayer(t.app);
    const first = await payer.choose(pidx, 'khalti');
    const second = await payer.choose(pidx, 'khalti');
    const paid = await payer.back(await payer.pick(second, 'paid'));
    expect(callbackParams(paid.location!).status).toBe('Completed');
    const late = await payer.back(await payer.pick(first, 'paid'));
    expect(late.status).toBe(200);
    expect(late.body).toContain('will be refunded to you');
    expect((await refundsOf(pidx)).map((r) => [r.reason, r.state, r.amount])).toEqual([['surplus', 'Queued', 1200]]);
    await ledgerHolds();
    await reconcileAttempts(t.ctx);
    expect((await refundsOf(pidx)).map((r) => r.state)).toEqual(['Refunded']);
    expect((await api.lookup(pidx)).body).toMatchObject({ status: 'Completed', total_amount: 1200 });
    const attempts = await t.db.query<{ state: string }>('SELECT state FROM provider_attempts WHERE pidx = $1 ORDER BY id', [pidx]);
    expect(attempts.map((a) => a.state)).toEqual(['Surplus', 'Paid']);
    await ledgerHolds();
  });

  it('owes back a payment paid at a provider when another pidx of the same order holds the money', async () => {
    const order = validInitiate({ amount: 1400 });
    const first = await api.initiate(order);
    const second = await api.initiate(order);
    const payer = providerPayer(t.app);
    const page = await payer.choose(second.body.pidx, 'connectips');
    expect(callbackParams((await payer.browser.pay(first.body.pidx)).location!).status).toBe('Completed');
    const late = await payer.back(await payer.pick(page, 'paid'));
    expect(late.body).toContain('will be refunded to you');
    expect((await api.lookup(second.body.pidx)).body.status).toBe('Initiated');
    expect((await refundsOf(second.body.pidx)).map((r) => [r.reason, r.amount])).toEqual([['surplus', 1400]]);
    await ledgerHolds();
  });

  it('owes back a payment paid at a provider after the payer paid with a wallet', async () => {
    const { body } = await api.initiate(validInitiate({ amount: 1300 }));
    const payer = providerPayer(t.app);
    const page = await payer.choose(body.pidx, 'esewa');
    expect(callbackParams((await payer.browser.pay(body.pidx)).location!).status).toBe('Completed');
    await payer.back(await payer.pick(page, 'paid'));
    expect((await refundsOf(body.pidx)).map((r) => [r.reason, r.state])).toEqual([['surplus', 'Queued']]);
    await reconcileAttempts(t.ctx);
    expect((await refundsOf(body.pidx))[0].next_try_at).toBeNull();
    await ledgerHolds();
  });
});

describe('an operator decides what the providers could not', () => {
  it('resolves a payment held Pending on a provider that never answered: Completed moves the money once', async () => {
    const { body } = await api.initiate(validInitiate({ amount: 1700 }));
    // eSewa signs its return: a payer who paid there, whose payment is held while eSewa cannot tell.
    const back = await providerPayer(t.app).pay(body.pidx, 'esewa', 'never_answers');
    expect(callbackParams(back.location!).status).toBe('Pending');
    for (let run = 0; run < 4; run++) {
      t.clock.advance(600);
      await reconcileAttempts(t.ctx);
    }
    const resolved = await resolvePayment(t.ctx, { actor: CLI_ACTOR, pidx: body.pidx, resolution: 'Completed', reason: 'seen in the eSewa portal' });
    expect(resolved.status).toBe('Completed');
    const [entry] = await t.db.query<{ action: string; reason: string }>("SELECT action, reason FROM audit_log WHERE object_id = $1 ORDER BY id DESC LIMIT 1", [body.pidx]);
    expect(entry).toEqual({ action: 'provider_attempt.paid', reason: 'seen in the eSewa portal' });
    await ledgerHolds();
  });

  it('resolves one as User canceled: the attempt failed, nothing moved', async () => {
    const { body } = await api.initiate(validInitiate({ amount: 1100 }));
    await providerPayer(t.app).pay(body.pidx, 'fonepay', 'never_answers');
    const resolved = await resolvePayment(t.ctx, { actor: CLI_ACTOR, pidx: body.pidx, resolution: 'User canceled', reason: 'not at Fonepay' });
    expect(resolved.status).toBe('User canceled');
    const [attempt] = await t.db.query<{ state: string }>('SELECT state FROM provider_attempts WHERE pidx = $1', [body.pidx]);
    expect(attempt.state).toBe('Failed');
    await ledgerHolds();
  });
});
