import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { merchantApi, refund, validInitiate } from '../../../test/api-client.js';
import { callbackParams, operatorWallet, payerBrowser, payWithLiveWallet, walletBalanceOf } from '../../../test/portal-client.js';
import { newMerchant, startTestApp, type TestApp } from '../../../test/test-app.js';
import { verifyLedger } from '../../ledger/verify-ledger.js';
import { saveBankAccount } from '../../merchants/bank-account-store.js';
import { requestPayout } from '../../settlements/request-payout.js';
import { settlementBalance } from '../../settlements/settlement-balance.js';

let t: TestApp;
let key: string;
let api: ReturnType<typeof merchantApi>;

beforeAll(async () => {
  t = await startTestApp();
  key = (await newMerchant(t.ctx)).test_secret_key;
  api = merchantApi(t.app, key);
  // Money for the fees: a whole refund gives back the fee too, which the balance holds (in test the sandbox would cover it).
  await paid(100_000);
});
afterAll(() => t.close());

async function paid(amount = 10_000, mobile = '9800000003') {
  const { body } = await api.initiate(validInitiate({ amount }));
  const done = await payerBrowser(t.app).pay(body.pidx, mobile);
  return { pidx: body.pidx as string, transactionId: callbackParams(done.location!).transaction_id };
}

async function walletBalance(mobile: string): Promise<number> {
  const [row] = await t.db.query<{ balance: number }>(
    `SELECT a.balance FROM ledger_accounts a JOIN wallets w ON w.id = a.owner_id AND a.kind = 'wallet' AND a.environment = w.environment
      WHERE w.environment = 'test' AND w.mobile = $1`,
    [mobile],
  );
  return row.balance;
}

/** The sandbox's covers of a merchant's refunds, oldest first: what each put into its balance. */
async function sandboxCovers(merchantId: number): Promise<number[]> {
  const rows = await t.db.query<{ amount: number }>(
    `SELECT p.amount FROM journals j JOIN postings p ON p.journal_id = j.id JOIN ledger_accounts a ON a.id = p.account_id AND a.kind = 'merchant'
      WHERE j.kind = 'sandbox_cover' AND a.owner_id = $1 ORDER BY j.id`,
    [merchantId],
  );
  return rows.map((r) => r.amount);
}

async function expectLedgerConsistent() {
  expect((await verifyLedger(t.db)).filter((r) => !r.holds)).toEqual([]);
}

describe('POST /api/merchant-transaction/{transaction_id}/refund/', () => {
  it('refunds the whole payment without an amount: Refunded, money back to the payer', async () => {
    const { pidx, transactionId } = await paid(10_000, '9800000004');
    const before = await walletBalance('9800000004');
    expect(await refund(t.app, key, transactionId)).toEqual({ status: 200, body: { detail: 'Transaction refund successful.' } });
    expect(await walletBalance('9800000004')).toBe(before + 10_000);
    const lookup = await api.lookup(pidx);
    expect(lookup.status).toBe(200);
    expect(lookup.body).toMatchObject({ status: 'Refunded', refunded: true, refunded_amount: 10_000, transaction_id: transactionId });
    const list = await api.transactions({ purchase_order_id: lookup.body.purchase_order_id });
    expect(list.body.records.map((r: { type: { name: string }; amount: number; refunded: boolean }) => [r.type.name, r.amount, r.refunded])).toEqual([
      ['Refund', 10_000, false],
      ['Wallet payment', 10_000, true],
    ]);
    await expectLedgerConsistent();
  });

  it('refunds in parts up to the total, then refuses more', async () => {
    const { pidx, transactionId } = await paid(10_000);
    expect((await refund(t.app, key, transactionId, { amount: 3000 })).status).toBe(200);
    expect((await api.lookup(pidx)).body).toMatchObject({ status: 'Partially refunded', refunded: true, refunded_amount: 3000 });
    expect((await refund(t.app, key, transactionId, { amount: '2000' })).status).toBe(200);
    expect(await refund(t.app, key, transactionId, { amount: 5001 })).toEqual({
      status: 400,
      body: { detail: 'Refund amount exceeds the refundable amount of 5000 paisa.', error_key: 'validation_error' },
    });
    expect((await refund(t.app, key, transactionId, { amount: 5000 })).status).toBe(200);
    expect((await api.lookup(pidx)).body).toMatchObject({ status: 'Refunded', refunded_amount: 10_000 });
    expect(await refund(t.app, key, transactionId)).toEqual({
      status: 400,
      body: { detail: 'Transaction has already been fully refunded.', error_key: 'validation_error' },
    });
    await expectLedgerConsistent();
  });

  it('answers 404 for an unknown transaction and for another merchant’s', async () => {
    const { transactionId } = await paid();
    expect(await refund(t.app, key, 'no-such-transaction')).toEqual({ status: 404, body: { detail: 'Not found.', error_key: 'validation_error' } });
    const other = await newMerchant(t.ctx);
    expect((await refund(t.app, other.test_secret_key, transactionId)).status).toBe(404);
    const mine = await newMerchant(t.ctx);
    expect((await refund(t.app, mine.live_secret_key, transactionId)).status).toBe(404);
  });

  it('refuses a payment that is not Completed (Pending), and bad amounts', async () => {
    const { body } = await api.initiate();
    const done = await payerBrowser(t.app).pay(body.pidx, '9800000007');
    const transactionId = callbackParams(done.location!).transaction_id;
    const response = await refund(t.app, key, transactionId);
    expect(response.status).toBe(400);
    expect(response.body.detail).toContain('Pending');
    const completed = await paid();
    expect(await refund(t.app, key, completed.transactionId, { amount: 0 })).toEqual({
      status: 400,
      body: { amount: ['Ensure this value is greater than or equal to 1.'], error_key: 'validation_error' },
    });
    expect((await refund(t.app, key, completed.transactionId, { amount: 'ten' })).body).toEqual({ amount: ['A valid integer is required.'], error_key: 'validation_error' });
  });

  it('live: refuses a refund larger than the merchant balance, never an overdraft', async () => {
    const shop = await newMerchant(t.ctx);
    await saveBankAccount(t.db, shop.merchant.id, { bankName: 'Nabil Bank', branch: 'Thamel', accountName: 'Shop', accountNumber: '0012345678901', updatedAt: t.clock.now() });
    const payer = await operatorWallet(t.ctx, { balance: 10_000 });
    const { body } = await merchantApi(t.app, shop.live_secret_key).initiate(validInitiate({ amount: 10_000 }));
    const transactionId = callbackParams((await payWithLiveWallet(payerBrowser(t.app), t.sentOtps, body.pidx, payer)).location!).transaction_id;
    // The fee stays with the service: the merchant holds 9,700 of the 10,000.
    expect(await refund(t.app, shop.live_secret_key, transactionId)).toEqual({
      status: 400,
      body: { detail: "Insufficient balance: the refund is more than the merchant's balance of 9700 paisa (money already paid out cannot be refunded).", error_key: 'validation_error' },
    });
    await requestPayout(t.ctx, { merchantId: shop.merchant.id, environment: 'live', amount: 9_000, requestedBy: 'api' });
    expect((await refund(t.app, shop.live_secret_key, transactionId, { amount: 701 })).body.detail).toContain('balance of 700 paisa');
    expect((await refund(t.app, shop.live_secret_key, transactionId, { amount: 700 })).status).toBe(200);
    expect(await walletBalanceOf(t.ctx, payer.wallet)).toBe(700);
    expect(await sandboxCovers(shop.merchant.id)).toEqual([]);
    await expectLedgerConsistent();
  });

  it('test: a new merchant refunds its first payment in full; the sandbox covers the fee, the balance ends at zero', async () => {
    const shop = await newMerchant(t.ctx);
    const shopApi = merchantApi(t.app, shop.test_secret_key);
    const { body } = await shopApi.initiate(validInitiate({ amount: 1_000 }));
    const transactionId = callbackParams((await payerBrowser(t.app).pay(body.pidx, '9800000002')).location!).transaction_id;
    const before = await walletBalance('9800000002');
    // Rs. 10 paid, Rs. 9.70 held: the whole Rs. 10 goes back, as in the real gateway's sandbox.
    expect(await refund(t.app, shop.test_secret_key, transactionId)).toEqual({ status: 200, body: { detail: 'Transaction refund successful.' } });
    expect(await walletBalance('9800000002')).toBe(before + 1_000);
    expect((await shopApi.lookup(body.pidx)).body).toMatchObject({ status: 'Refunded', refunded_amount: 1_000 });
    const owner = { merchantId: shop.merchant.id, environment: 'test' as const };
    expect(await settlementBalance(t.ctx, owner)).toEqual({ pending: 0, available: 0, clearing: 0 });
    expect(await sandboxCovers(shop.merchant.id)).toEqual([30]);
    // What was covered is never money to pay out.
    expect((await t.app.inject({ method: 'POST', url: '/api/v2/settlements/', headers: { authorization: `Key ${shop.test_secret_key}` }, payload: {} })).json()).toEqual({
      detail: 'No balance is available for a payout yet.',
      error_key: 'validation_error',
    });
    await expectLedgerConsistent();
  });

  it('test: money already paid out is refunded too, the sandbox covering only what the balance lacks', async () => {
    const shop = await newMerchant(t.ctx);
    const owner = { merchantId: shop.merchant.id, environment: 'test' as const };
    const shopApi = merchantApi(t.app, shop.test_secret_key);
    const paidIds: string[] = [];
    for (const amount of [10_000, 2_000]) {
      const { body } = await shopApi.initiate(validInitiate({ amount }));
      paidIds.push(callbackParams((await payerBrowser(t.app).pay(body.pidx)).location!).transaction_id);
    }
    await requestPayout(t.ctx, { ...owner, amount: 9_000, requestedBy: 'api' });
    // 11,640 held less 9,000 paid out: 2,640 left. A part of 1,000 needs no cover.
    expect((await refund(t.app, shop.test_secret_key, paidIds[1], { amount: 1_000 })).status).toBe(200);
    expect(await sandboxCovers(shop.merchant.id)).toEqual([]);
    expect(await settlementBalance(t.ctx, owner)).toMatchObject({ pending: 0, available: 1_640 });
    // The whole 10,000 on 1,640: the sandbox covers 8,360.
    expect((await refund(t.app, shop.test_secret_key, paidIds[0])).status).toBe(200);
    expect(await sandboxCovers(shop.merchant.id)).toEqual([8_360]);
    expect(await settlementBalance(t.ctx, owner)).toEqual({ pending: 0, available: 0, clearing: 9_000 });
    // A later payment is the merchant's own again, whole.
    const { body } = await shopApi.initiate(validInitiate({ amount: 500 }));
    await payerBrowser(t.app).pay(body.pidx);
    expect(await settlementBalance(t.ctx, owner)).toMatchObject({ available: 485 });
    await expectLedgerConsistent();
  });

  it('20 racing refunds asking for more than was paid return at most the amount', async () => {
    const { pidx, transactionId } = await paid(10_000, '9800000005');
    const before = await walletBalance('9800000005');
    const results = await Promise.all(Array.from({ length: 20 }, () => refund(t.app, key, transactionId, { amount: 700 })));
    const succeeded = results.filter((r) => r.status === 200).length;
    expect(succeeded).toBe(14); // 14 × 700 = 9800 ≤ 10000 < 15 × 700
    expect(results.filter((r) => r.status === 400).length).toBe(6);
    expect(await walletBalance('9800000005')).toBe(before + 9800);
    expect((await api.lookup(pidx)).body).toMatchObject({ status: 'Partially refunded', refunded_amount: 9800 });
    await expectLedgerConsistent();
  });
});

describe('Idempotency-Key on refund', () => {
  it('a retried refund with the same key refunds once', async () => {
    const { pidx, transactionId } = await paid(10_000);
    const send = () =>
      t.app.inject({
        method: 'POST',
        url: `/api/merchant-transaction/${transactionId}/refund/`,
        headers: { authorization: `Key ${key}`, 'idempotency-key': `refund-${pidx}` },
        payload: { amount: 1000 },
      });
    const responses = await Promise.all([send(), send(), send()]);
    expect(responses.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    expect((await api.lookup(pidx)).body.refunded_amount).toBe(1000);
    await expectLedgerConsistent();
  });
});
