import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { merchantApi, refund, validInitiate } from '../../test/api-client.js';
import { callbackParams, payerBrowser } from '../../test/portal-client.js';
import { newMerchant, startTestApp, type TestApp } from '../../test/test-app.js';
import { verifyLedger } from '../ledger/verify-ledger.js';
import { requestPayout } from '../settlements/request-payout.js';

let t: TestApp;
let key: string;
let api: ReturnType<typeof merchantApi>;

beforeAll(async () => {
  t = await startTestApp();
  key = (await newMerchant(t.ctx)).test_secret_key;
  api = merchantApi(t.app, key);
  // Money for the fees: a whole refund gives back the fee too, which the merchant's balance must hold.
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

  it('refuses a refund larger than the merchant balance, never an overdraft (contract section 10)', async () => {
    const shop = await newMerchant(t.ctx);
    const done = await payerBrowser(t.app).pay((await merchantApi(t.app, shop.test_secret_key).initiate(validInitiate({ amount: 10_000 }))).body.pidx);
    const transactionId = callbackParams(done.location!).transaction_id;
    // The fee stays with the service: the merchant holds 9,700 of the 10,000.
    expect(await refund(t.app, shop.test_secret_key, transactionId)).toEqual({
      status: 400,
      body: { detail: "Insufficient balance: the refund is more than the merchant's balance of 9700 paisa (money already paid out cannot be refunded).", error_key: 'validation_error' },
    });
    await requestPayout(t.ctx, { merchantId: shop.merchant.id, environment: 'test', amount: 9_000, requestedBy: 'api' });
    expect((await refund(t.app, shop.test_secret_key, transactionId, { amount: 701 })).body.detail).toContain('balance of 700 paisa');
    expect((await refund(t.app, shop.test_secret_key, transactionId, { amount: 700 })).status).toBe(200);
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
