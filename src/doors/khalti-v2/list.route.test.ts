// GET /api/v2/merchant-transaction/ (specification 2.5) over records made the
// real way: by payers paying through the hosted page.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLI_ACTOR } from '../../audit/audit-entry.js';
import { merchantApi, validInitiate } from '../../../test/api-client.js';
import { callbackParams, operatorWallet, payerBrowser, payWithLiveWallet } from '../../../test/portal-client.js';
import { newMerchant, startTestApp, type TestApp } from '../../../test/test-app.js';
import { verifyLedger } from '../../ledger/verify-ledger.js';
import { createMerchant } from '../../merchants/create-merchant.js';
import { resolvePayment } from '../../payments/resolve-payment.js';
import { findWallet } from '../../wallets/wallet-store.js';

const LIST_URL = 'http://bhuktani.test/api/v2/merchant-transaction/';
const CREATED_ON = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}\+05:45$/;
const INVALID_PAGE = { detail: 'Invalid page.' };
const COMPLETED = { idx: 'completed', name: 'Completed', template: 'is complete' };
const CONFIRMED = { idx: 'confirmed', name: 'Confirmed', template: 'is confirm' };
const WALLET_PAYMENT = { idx: 'wallet_payment', name: 'Wallet payment' };

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());
afterEach(async () => {
  expect((await verifyLedger(t.db)).filter((r) => !r.holds)).toEqual([]);
});

type Api = ReturnType<typeof merchantApi>;

async function merchantWithApis() {
  const merchant = await newMerchant(t.ctx);
  return { merchant, test: merchantApi(t.app, merchant.test_secret_key), live: merchantApi(t.app, merchant.live_secret_key) };
}

/** Initiates and pays through the portal with a sandbox wallet; returns what the merchant learns. */
async function pay(api: Api, options: { mobile?: string; amount?: number; purchase_order_id?: string } = {}) {
  const order = validInitiate({ amount: options.amount ?? 1000, ...(options.purchase_order_id ? { purchase_order_id: options.purchase_order_id } : {}) });
  const { body } = await api.initiate(order);
  const paidAt = t.clock.now();
  const done = await payerBrowser(t.app).pay(body.pidx, options.mobile ?? '9800000001');
  expect(done.status).toBe(303);
  const params = callbackParams(done.location!);
  return { pidx: body.pidx as string, purchase_order_id: order.purchase_order_id, transaction_id: params.transaction_id, paidAt };
}

/** The timestamp as the gateway writes it, computed independently: Kathmandu is UTC+05:45 all year. */
function kathmandu(date: Date): string {
  return new Date(date.getTime() + (5 * 60 + 45) * 60_000).toISOString().replace('Z', '000+05:45');
}

describe('the transaction record', () => {
  it('has the shape of specification 2.5 for a completed payment', async () => {
    const created = await createMerchant(t.ctx, { name: 'Himalayan Java', email: `java-${Date.now()}-${Math.random()}@example.com`, password: 'correct horse battery', mobile: '9801234567' });
    const api = merchantApi(t.app, created.test_secret_key);
    const paid = await pay(api, { amount: 123_456 });
    const payer = (await findWallet(t.db, 'test', '9800000001'))!;

    const { status, body } = await api.transactions();
    expect(status).toBe(200);
    expect(body).toStrictEqual({
      total_pages: 1,
      total_records: 1,
      next: null,
      previous: null,
      record_range: [1, 1],
      current_page: 1,
      records: [
        {
          idx: paid.transaction_id,
          type: WALLET_PAYMENT,
          state: COMPLETED,
          amount: 123_456,
          fee_amount: 3704,
          refunded: false,
          created_on: kathmandu(paid.paidAt),
          ebanker: null,
          user: { idx: payer.idx, name: payer.name, mobile: '98XXXXXXX1' },
          merchant: { idx: created.merchant.idx, name: 'Himalayan Java', mobile: '9801234567' },
          pidx: paid.pidx,
          purchase_order_id: paid.purchase_order_id,
        },
      ],
    });
    expect(body.records[0].created_on).toMatch(CREATED_ON);
    // idx is the transaction_id the merchant got in the callback and from lookup.
    expect((await api.lookup(paid.pidx)).body.transaction_id).toBe(body.records[0].idx);
  });

  it('a Pending payment is listed as Confirmed, and as Completed once the operator completes it', async () => {
    const { test: api } = await merchantWithApis();
    const held = await pay(api, { mobile: '9800000007', amount: 5000 });
    const { body } = await api.transactions();
    expect(body.records).toHaveLength(1);
    expect(body.records[0]).toMatchObject({
      idx: held.transaction_id,
      type: WALLET_PAYMENT,
      state: CONFIRMED,
      amount: 5000,
      fee_amount: 150,
      user: { name: 'Sandbox Pending', mobile: '98XXXXXXX7' },
    });
    expect(body.records[0].created_on).toMatch(CREATED_ON);

    await resolvePayment(t.ctx, { actor: CLI_ACTOR, pidx: held.pidx, resolution: 'Completed' });
    const after = await api.transactions();
    expect(after.body.records).toHaveLength(1);
    expect(after.body.records[0]).toMatchObject({ idx: held.transaction_id, state: COMPLETED });
  });

  it('a Pending payment the operator cancels is no longer Confirmed', async () => {
    const { test: api } = await merchantWithApis();
    const held = await pay(api, { mobile: '9800000007' });
    await resolvePayment(t.ctx, { actor: CLI_ACTOR, pidx: held.pidx, resolution: 'User canceled' });
    const { body } = await api.transactions();
    expect(body.records.map((r: { idx: string; state: unknown }) => [r.idx, r.state])).toEqual([
      [held.transaction_id, { idx: 'canceled', name: 'Canceled', template: 'is cancel' }],
    ]);
    expect((await api.transactions({ status: 'Confirmed' })).body.total_records).toBe(0);
  });

  it('unpaid, canceled and expired payments have no record', async () => {
    const { test: api } = await merchantWithApis();
    await api.initiate();
    const { body: canceled } = await api.initiate();
    const browser = payerBrowser(t.app);
    await browser.open(canceled.pidx);
    await browser.cancel(canceled.pidx);
    const { body: expiring } = await api.initiate();
    t.clock.advance(3601);
    expect((await api.lookup(expiring.pidx)).body.status).toBe('Expired');
    expect((await api.transactions()).body).toStrictEqual({
      total_pages: 1,
      total_records: 0,
      next: null,
      previous: null,
      record_range: [0, 0],
      current_page: 1,
      records: [],
    });
  });
});

describe('pages', () => {
  let api: Api;
  /** Transaction ids, oldest first. */
  let paid: string[];

  beforeAll(async () => {
    ({ test: api } = await merchantWithApis());
    paid = [];
    for (let i = 0; i < 25; i++) {
      paid.push((await pay(api, { amount: 1000 + i })).transaction_id);
      t.clock.advance(1);
    }
  });

  it('lists newest first, page_size at a time, with absolute links to the neighbouring pages', async () => {
    const newestFirst = [...paid].reverse();
    const first = await api.transactions({ page_size: 10 });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      total_pages: 3,
      total_records: 25,
      next: `${LIST_URL}?page=2&page_size=10`,
      previous: null,
      record_range: [1, 10],
      current_page: 1,
    });
    expect(first.body.records.map((r: { idx: string }) => r.idx)).toEqual(newestFirst.slice(0, 10));
    expect(first.body.records[0].amount).toBe(1024);

    const second = await api.transactions({ page: 2, page_size: 10 });
    expect(second.body).toMatchObject({
      total_pages: 3,
      total_records: 25,
      next: `${LIST_URL}?page=3&page_size=10`,
      previous: `${LIST_URL}?page=1&page_size=10`,
      record_range: [11, 20],
      current_page: 2,
    });
    expect(second.body.records.map((r: { idx: string }) => r.idx)).toEqual(newestFirst.slice(10, 20));

    const third = await api.transactions({ page: 3, page_size: 10 });
    expect(third.body).toMatchObject({ next: null, previous: `${LIST_URL}?page=2&page_size=10`, record_range: [21, 25], current_page: 3 });
    expect(third.body.records.map((r: { idx: string }) => r.idx)).toEqual(newestFirst.slice(20));
  });

  it('follows its own next links to the end', async () => {
    const seen: string[] = [];
    let url: string | null = `${LIST_URL}?page_size=7`;
    while (url) {
      const { status, body } = await api.send({ method: 'GET', url: url.replace('http://bhuktani.test', '') });
      expect(status).toBe(200);
      seen.push(...body.records.map((r: { idx: string }) => r.idx));
      url = body.next;
    }
    expect(seen).toEqual([...paid].reverse());
  });

  it('page_size defaults to 20; an unreadable page_size too', async () => {
    for (const query of [{}, { page_size: 'abc' }, { page_size: '0' }] as Record<string, string>[]) {
      const { body } = await api.transactions(query);
      expect(body).toMatchObject({ total_pages: 2, record_range: [1, 20], next: `${LIST_URL}?page=2&page_size=20` });
    }
  });

  it('a page past the end, or not a page number, is 404 Invalid page.', async () => {
    for (const page of ['4', '100', 'abc', '0', '-1', '1.5']) {
      const { status, body } = await api.transactions({ page, page_size: 10 });
      expect({ page, status, body }).toStrictEqual({ page, status: 404, body: INVALID_PAGE });
    }
  });

  it('keeps the filters in the links', async () => {
    const { body } = await api.transactions({ status: 'Completed', page_size: 10, page: 2 });
    expect(body.next).toBe(`${LIST_URL}?page=3&page_size=10&status=Completed`);
    expect(body.previous).toBe(`${LIST_URL}?page=1&page_size=10&status=Completed`);
    const day = kathmandu(t.clock.now()).slice(0, 10);
    const dated = await api.transactions({ from: day, to: day, page_size: 10 });
    const next = new URL(dated.body.next);
    expect(`${next.origin}${next.pathname}`).toBe(LIST_URL);
    expect(Object.fromEntries(next.searchParams)).toEqual({ page: '2', page_size: '10', from: day, to: day });
  });
});

it('page_size over 100 is clamped to 100', async () => {
  const { test: api } = await merchantWithApis();
  // 101 records, so the clamp shows: 100 on page 1. Paid through the portal, ten payers at a time.
  const pidxs: string[] = [];
  for (let i = 0; i < 101; i++) pidxs.push((await api.initiate()).body.pidx);
  for (let i = 0; i < pidxs.length; i += 10) {
    await Promise.all(pidxs.slice(i, i + 10).map(async (pidx) => expect((await payerBrowser(t.app).pay(pidx)).status).toBe(303)));
  }
  const { status, body } = await api.transactions({ page_size: 500 });
  expect(status).toBe(200);
  expect(body).toMatchObject({ total_pages: 2, total_records: 101, record_range: [1, 100], next: `${LIST_URL}?page=2&page_size=100` });
  expect(body.records).toHaveLength(100);
  const last = await api.transactions({ page: 2, page_size: 100 });
  expect(last.body).toMatchObject({ record_range: [101, 101], previous: `${LIST_URL}?page=1&page_size=100`, next: null });
}, 60_000);

describe('filters', () => {
  let api: Api;
  let day1: { transaction_id: string; purchase_order_id: string; paidAt: Date };
  let day2: { transaction_id: string; purchase_order_id: string; paidAt: Date };
  let day3held: { transaction_id: string; purchase_order_id: string; paidAt: Date };
  const dayOf = (d: Date) => kathmandu(d).slice(0, 10);
  const idsOf = (body: { records: { idx: string }[] }) => body.records.map((r) => r.idx);

  beforeAll(async () => {
    ({ test: api } = await merchantWithApis());
    day1 = await pay(api);
    t.clock.advance(24 * 3600);
    day2 = await pay(api);
    t.clock.advance(24 * 3600);
    day3held = await pay(api, { mobile: '9800000007' });
  });

  it('status selects the record state', async () => {
    expect(idsOf((await api.transactions({ status: 'Completed' })).body)).toEqual([day2.transaction_id, day1.transaction_id]);
    expect(idsOf((await api.transactions({ status: 'Confirmed' })).body)).toEqual([day3held.transaction_id]);
  });

  it('purchase_order_id selects one order', async () => {
    const { body } = await api.transactions({ purchase_order_id: day2.purchase_order_id });
    expect(body.total_records).toBe(1);
    expect(body.records[0]).toMatchObject({ idx: day2.transaction_id, purchase_order_id: day2.purchase_order_id });
    expect((await api.transactions({ purchase_order_id: 'no-such-order' })).body.total_records).toBe(0);
  });

  it('from and to are whole days in Asia/Kathmandu, both included', async () => {
    expect(idsOf((await api.transactions({ from: dayOf(day2.paidAt) })).body)).toEqual([day3held.transaction_id, day2.transaction_id]);
    expect(idsOf((await api.transactions({ to: dayOf(day2.paidAt) })).body)).toEqual([day2.transaction_id, day1.transaction_id]);
    expect(idsOf((await api.transactions({ from: dayOf(day2.paidAt), to: dayOf(day2.paidAt) })).body)).toEqual([day2.transaction_id]);
    expect((await api.transactions({ from: dayOf(day3held.paidAt), to: dayOf(day1.paidAt) })).body.total_records).toBe(0);
  });

  it('a day starts at midnight in Kathmandu, not in UTC', async () => {
    const { test: own } = await merchantWithApis();
    const day = 24 * 3600 * 1000;
    const offset = (5 * 60 + 45) * 60_000;
    // Ten past midnight in Kathmandu: still the previous day in UTC.
    const local = t.clock.now().getTime() + offset;
    const target = Math.ceil(local / day) * day + 10 * 60_000 - offset;
    t.clock.advance((target - t.clock.now().getTime()) / 1000);
    const justAfterMidnight = await pay(own);
    const localDay = dayOf(justAfterMidnight.paidAt);
    const utcDay = justAfterMidnight.paidAt.toISOString().slice(0, 10);
    expect(utcDay).not.toBe(localDay);

    expect(idsOf((await own.transactions({ from: localDay, to: localDay })).body)).toEqual([justAfterMidnight.transaction_id]);
    expect((await own.transactions({ to: utcDay })).body.total_records).toBe(0);
    expect((await own.transactions({ from: utcDay, to: utcDay })).body.total_records).toBe(0);
  });

  it('from and to also take ISO timestamps, as instants', async () => {
    const { body } = await api.transactions({ from: day2.paidAt.toISOString(), to: day2.paidAt.toISOString() });
    expect(idsOf(body)).toEqual([day2.transaction_id]);
  });

  it('filters combine', async () => {
    const { body } = await api.transactions({ status: 'Completed', from: dayOf(day2.paidAt) });
    expect(idsOf(body)).toEqual([day2.transaction_id]);
  });

  it('a bad status is 400 with the field error', async () => {
    const { status, body } = await api.transactions({ status: 'Bogus' });
    expect(status).toBe(400);
    expect(body).toStrictEqual({ status: ['"Bogus" is not a valid choice.'], error_key: 'validation_error' });
  });

  it('a bad date is 400 with the field error; every bad field at once', async () => {
    const message = ['Date has wrong format. Use one of these formats instead: YYYY-MM-DD.'];
    for (const from of ['yesterday', '2025-13-01', '2025-02-30', '01-02-2025']) {
      const { status, body } = await api.transactions({ from });
      expect({ from, status, body }).toStrictEqual({ from, status: 400, body: { from: message, error_key: 'validation_error' } });
    }
    const both = await api.transactions({ from: 'x', to: 'y', status: 'z' });
    expect(both.status).toBe(400);
    expect(both.body).toStrictEqual({ status: ['"z" is not a valid choice.'], from: message, to: message, error_key: 'validation_error' });
  });

  it('an empty result is one page with record_range [0,0]; page 2 of it is 404', async () => {
    const { status, body } = await api.transactions({ purchase_order_id: 'nothing-here' });
    expect(status).toBe(200);
    expect(body).toStrictEqual({ total_pages: 1, total_records: 0, next: null, previous: null, record_range: [0, 0], current_page: 1, records: [] });
    const past = await api.transactions({ purchase_order_id: 'nothing-here', page: 2 });
    expect(past).toStrictEqual({ status: 404, body: INVALID_PAGE });
  });
});

describe('whose records', () => {
  it('the test key lists only test records and the live key only live ones', async () => {
    const { test, live } = await merchantWithApis();
    const sandboxPaid = await pay(test);
    const payer = await operatorWallet(t.ctx, { balance: 10_000, name: 'Sita Live' });
    const { body } = await live.initiate(validInitiate({ amount: 2500 }));
    const done = await payWithLiveWallet(payerBrowser(t.app), t.sentOtps, body.pidx, payer);
    const livePaid = callbackParams(done.location!);

    const testList = await test.transactions();
    expect(testList.body.records.map((r: { idx: string }) => r.idx)).toEqual([sandboxPaid.transaction_id]);
    const liveList = await live.transactions();
    expect(liveList.body.total_records).toBe(1);
    expect(liveList.body.records[0]).toMatchObject({
      idx: livePaid.transaction_id,
      state: COMPLETED,
      amount: 2500,
      fee_amount: 75,
      user: { idx: payer.wallet.idx, name: 'Sita Live', mobile: `97XXXXXXX${payer.mobile.at(-1)}` },
    });
  });

  it("another merchant's records never appear", async () => {
    const mine = await merchantWithApis();
    const theirs = await merchantWithApis();
    const myPayment = await pay(mine.test);
    const theirPayment = await pay(theirs.test);
    const myList = await mine.test.transactions();
    expect(myList.body.records.map((r: { idx: string }) => r.idx)).toEqual([myPayment.transaction_id]);
    expect(myList.body.records[0].merchant.idx).toBe(mine.merchant.merchant.idx);
    expect((await mine.test.transactions({ purchase_order_id: theirPayment.purchase_order_id })).body.total_records).toBe(0);
    expect((await theirs.test.transactions()).body.records.map((r: { idx: string }) => r.idx)).toEqual([theirPayment.transaction_id]);
    expect((await mine.live.transactions()).body.total_records).toBe(0);
  });
});
