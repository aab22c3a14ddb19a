// The settlements API over HTTP: request, list, one payout with its records;
// its errors in the contract's shapes; the sandbox bank paying a test payout by itself.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { merchantApi, refund, validInitiate } from '../../test/api-client.js';
import { approveSignedUp } from '../../test/merchant-approval.js';
import { merchantBrowser } from '../../test/dashboard-client.js';
import { callbackParams, operatorWallet, payerBrowser, payWithLiveWallet } from '../../test/portal-client.js';
import { newMerchant, startTestApp, type TestApp } from '../../test/test-app.js';
import { verifyLedger } from '../ledger/verify-ledger.js';
import { runPayoutRails } from '../jobs/payout-rails-job.js';

let t: TestApp;

beforeAll(async () => {
  // Its own store on PostgreSQL: the sandbox bank moves every test payout of the store it runs on.
  t = await startTestApp({ ownDb: true });
});
afterAll(() => t.close());

const SETTLEMENTS = '/api/v2/settlements/';

function settlementsApi(key: string) {
  const send = async (method: 'GET' | 'POST', url: string, payload?: object | string, headers: Record<string, string> = {}) => {
    const response = await t.app.inject({ method, url, headers: { authorization: `Key ${key}`, ...headers }, ...(payload !== undefined ? { payload } : {}) });
    return { status: response.statusCode, body: response.json(), headers: response.headers };
  };
  return {
    request: (body?: object | string, headers?: Record<string, string>) => send('POST', SETTLEMENTS, body, headers),
    list: (query = '') => send('GET', `${SETTLEMENTS}${query}`),
    get: (idx: string) => send('GET', `${SETTLEMENTS}${encodeURIComponent(idx)}/`),
  };
}

async function paidShop(amounts: number[]) {
  const created = await newMerchant(t.ctx);
  const api = merchantApi(t.app, created.test_secret_key);
  const paid: { pidx: string; transactionId: string }[] = [];
  for (const amount of amounts) {
    const { body } = await api.initiate(validInitiate({ amount }));
    const done = await payerBrowser(t.app).pay(body.pidx, '9800000001');
    paid.push({ pidx: body.pidx, transactionId: callbackParams(done.location!).transaction_id });
  }
  return { created, paid, settlements: settlementsApi(created.test_secret_key) };
}

describe('a statement after a refund the sandbox covered', () => {
  it('shows the cover: the records add up to the payout with nothing brought forward, and no covered paisa is paid out', async () => {
    const { created, paid, settlements } = await paidShop([1_000]);
    expect((await refund(t.app, created.test_secret_key, paid[0].transactionId)).status).toBe(200);
    const { body } = await merchantApi(t.app, created.test_secret_key).initiate(validInitiate({ amount: 2_000 }));
    await payerBrowser(t.app).pay(body.pidx, '9800000001');
    const requested = await settlements.request({});
    // 1,940 of the second payment: the first went back to its payer whole, 30 of it from the sandbox.
    expect(requested.body.amount).toBe(1_940);
    const detail = await settlements.get(requested.body.idx);
    expect(detail.body.totals).toEqual({ payments: 3_000, fees: 90, refunds: 1_000, sandbox_covered: 30, records_net: 1_940, brought_forward: 0, carried_forward: 0, amount: 1_940 });
    expect(detail.body.records.map((r: { type: string; amount: number; sandbox_covered: number; net_amount: number }) => [r.type, r.amount, r.sandbox_covered, r.net_amount])).toEqual([
      ['Wallet payment', 1_000, 0, 970],
      ['Refund', 1_000, 30, -970],
      ['Wallet payment', 2_000, 0, 1_940],
    ]);
    expect((await verifyLedger(t.db)).filter((r) => !r.holds)).toEqual([]);
  });
});

describe('POST /api/v2/settlements/', () => {
  it('201 with the payout; the detail lists its records and totals that add up; NPI\'s simulator pays it', async () => {
    const { paid, settlements } = await paidShop([10_000, 20_000]);
    await merchantApi(t.app, (await paidShop([])).created.test_secret_key).transactions(); // another shop, untouched
    const requested = await settlements.request({ amount: 25_000 });
    expect(requested.status).toBe(201);
    expect(requested.body).toMatchObject({
      amount: 25_000,
      state: 'Requested',
      bank_account: null,
      bank_reference: null,
      failure_reason: null,
      requested_by: 'api',
      requested_on: expect.stringMatching(/\+05:45$/),
      processing_on: null,
      paid_on: null,
    });
    const detail = await settlements.get(requested.body.idx);
    expect(detail.status).toBe(200);
    expect(detail.body.totals).toEqual({ payments: 30_000, fees: 900, refunds: 0, sandbox_covered: 0, records_net: 29_100, brought_forward: 0, carried_forward: 4_100, amount: 25_000 });
    expect(detail.body.records.map((r: { idx: string; net_amount: number; released: boolean }) => [r.idx, r.net_amount, r.released])).toEqual([
      [paid[0].transactionId, 9_700, false],
      [paid[1].transactionId, 19_400, false],
    ]);
    const { totals } = detail.body;
    expect(totals.brought_forward + totals.records_net - totals.carried_forward).toBe(totals.amount);

    await runPayoutRails(t.ctx);
    expect((await settlements.get(requested.body.idx)).body).toMatchObject({
      state: 'Paid',
      bank_reference: expect.stringMatching(`^NPI connectIPS R\\w+/${requested.body.idx} `),
      processing_on: expect.any(String),
      paid_on: expect.any(String),
      waiting_reason: null,
    });
    expect((await verifyLedger(t.db)).filter((r) => !r.holds)).toEqual([]);
  });

  it('without an amount takes all that is available; then there is nothing left', async () => {
    const { settlements } = await paidShop([10_000]);
    expect((await settlements.request()).body).toMatchObject({ amount: 9_700 });
    expect(await settlements.request({})).toEqual({
      status: 400,
      body: { detail: 'No balance is available for a payout yet.', error_key: 'validation_error' },
      headers: expect.anything(),
    });
  });

  it('errors in the contract shapes: too much, not a positive whole number, bad JSON', async () => {
    const { settlements } = await paidShop([10_000]);
    const tooMuch = await settlements.request({ amount: 9_701 });
    expect([tooMuch.status, tooMuch.body]).toEqual([400, { amount: ['Amount exceeds the available balance of 9700 paisa.'], error_key: 'validation_error' }]);
    for (const amount of [0, -5, 1.5, 'abc', true]) {
      const answer = await settlements.request({ amount });
      expect([answer.status, answer.body.error_key, Object.keys(answer.body)]).toEqual([400, 'validation_error', ['amount', 'error_key']]);
    }
    const broken = await settlements.request('{"amount": ', { 'content-type': 'application/json' });
    expect(broken.status).toBe(400);
    expect((await settlements.list()).body.total_records).toBe(0);
  });

  it('an Idempotency-Key replays the first payout instead of paying out twice', async () => {
    const { settlements } = await paidShop([10_000]);
    const first = await settlements.request({ amount: 1_000 }, { 'idempotency-key': 'payout-1' });
    const again = await settlements.request({ amount: 1_000 }, { 'idempotency-key': 'payout-1' });
    expect(again.status).toBe(201);
    expect(again.body.idx).toBe(first.body.idx);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect((await settlements.list()).body.total_records).toBe(1);
  });

  it('live: refused until the merchant is approved, then paid to the bank account snapshot', async () => {
    const browser = merchantBrowser(t.app);
    const { keys, fields } = await browser.signUp();
    const live = settlementsApi(keys.live);
    expect((await live.request()).status).toBe(403);
    await approveSignedUp(t.ctx, fields.email, { account_number: '0012345678901' });
    expect(await live.request()).toMatchObject({ status: 400, body: { detail: 'No balance is available for a payout yet.' } });
    const wallet = await operatorWallet(t.ctx, { balance: 100_000 });
    const { body } = await merchantApi(t.app, keys.live).initiate(validInitiate({ amount: 50_000 }));
    expect((await payWithLiveWallet(payerBrowser(t.app), t.sentOtps, body.pidx, wallet)).status).toBe(303);
    const payout = await live.request();
    expect(payout.body).toMatchObject({ amount: 48_500, state: 'Requested', bank_account: { account_number: '••••8901', bank_name: expect.any(String) } });
    // The sandbox bank leaves live payouts to the operator.
    await runPayoutRails(t.ctx);
    expect((await live.get(payout.body.idx)).body.state).toBe('Requested');
    // Test and live are apart: the test key does not see it.
    expect((await settlementsApi(keys.test).get(payout.body.idx)).status).toBe(404);
    expect((await settlementsApi(keys.test).list()).body.total_records).toBe(0);
  });
});

describe('GET /api/v2/settlements/', () => {
  it('pages the payouts newest first in the transaction list shape', async () => {
    const { settlements } = await paidShop([10_000]);
    const idxs: string[] = [];
    for (let i = 0; i < 3; i++) idxs.push((await settlements.request({ amount: 100 + i })).body.idx);
    const page1 = await settlements.list('?page_size=2');
    expect(page1.body).toMatchObject({
      total_pages: 2,
      total_records: 3,
      current_page: 1,
      record_range: [1, 2],
      previous: null,
      next: 'http://bhuktani.test/api/v2/settlements/?page=2&page_size=2',
    });
    expect(page1.body.records.map((r: { idx: string }) => r.idx)).toEqual([idxs[2], idxs[1]]);
    const page2 = await settlements.list('?page=2&page_size=2');
    expect(page2.body.records.map((r: { amount: number }) => r.amount)).toEqual([100]);
    expect(await settlements.list('?page=3&page_size=2')).toMatchObject({ status: 404, body: { detail: 'Invalid page.' } });
    expect(await settlements.list('?page=abc')).toMatchObject({ status: 404, body: { detail: 'Invalid page.' } });
  });

  it('another merchant sees none of them; an unknown idx is not found', async () => {
    const { settlements } = await paidShop([10_000]);
    const mine = (await settlements.request()).body.idx;
    const other = await paidShop([]);
    expect(await other.settlements.get(mine)).toMatchObject({ status: 404, body: { detail: 'Not found.', error_key: 'validation_error' } });
    expect((await other.settlements.list()).body.total_records).toBe(0);
    expect((await settlements.get('no-such-payout')).status).toBe(404);
    const anonymous = await t.app.inject({ method: 'GET', url: SETTLEMENTS });
    expect(anonymous.statusCode).toBe(401);
  });
});
