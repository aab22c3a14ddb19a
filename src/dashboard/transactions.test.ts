// The dashboard's transaction list is the API's list: same records, same order, same filters, plus
// a search, pages, and the CSV of the filtered list.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { merchantApi, refund } from '../../test/api-client.js';
import { merchantBrowser, pageText, paidPayment, type MerchantBrowser } from '../../test/dashboard-client.js';
import { startTestApp, type TestApp } from '../../test/test-app.js';
import { CSV_HEADER } from './transactions-csv.js';
import { addDays, localDay } from '../local-days.js';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

/** The record ids of a dashboard list page, top to bottom. */
const rowIdxs = (body: string) => [...body.matchAll(/<tr data-idx="([^"]+)"/g)].map((m) => m[1]);

async function signedUp(): Promise<{ browser: MerchantBrowser; key: string; api: ReturnType<typeof merchantApi>; fields: { email: string; password: string } }> {
  const browser = merchantBrowser(t.app);
  const { keys, fields } = await browser.signUp();
  return { browser, key: keys.test, api: merchantApi(t.app, keys.test), fields };
}

async function apiIdxs(api: ReturnType<typeof merchantApi>, query: Record<string, string | number> = {}): Promise<string[]> {
  const { status, body } = await api.transactions({ page_size: 100, ...query });
  expect(status).toBe(200);
  return body.records.map((r: { idx: string }) => r.idx);
}

describe('the list', () => {
  it('has the records the API lists, in the same order, 20 to a page', async () => {
    const { browser, key, api } = await signedUp();
    const first = await paidPayment(t.app, key, { amount: 100_000 });
    for (let i = 0; i < 20; i++) {
      t.clock.advance(1);
      expect((await refund(t.app, key, first.transactionId, { amount: 10 })).status).toBe(200);
    }
    t.clock.advance(1);
    await paidPayment(t.app, key, { amount: 2500 });
    const expected = await apiIdxs(api);
    expect(expected).toHaveLength(22);

    const page1 = await browser.get('/dashboard/transactions');
    expect(page1.status).toBe(200);
    expect(rowIdxs(page1.body)).toEqual(expected.slice(0, 20));
    expect(pageText(page1.body)).toContain('Showing 1–20 of 22');
    expect(page1.body).toContain('href="/dashboard/transactions?page=2"');

    const page2 = await browser.get('/dashboard/transactions?page=2');
    expect(rowIdxs(page2.body)).toEqual(expected.slice(20));
    expect(pageText(page2.body)).toContain('Showing 21–22 of 22');
    expect(page2.body).toContain('rel="prev" href="/dashboard/transactions"');

    expect((await browser.get('/dashboard/transactions?page=3')).status).toBe(404);
    expect((await browser.get('/dashboard/transactions?page=0')).status).toBe(404);
  });

  it('shows each record: amount, fee, masked payer, state and the payment’s status, linked to the payment', async () => {
    const { browser, key } = await signedUp();
    const paid = await paidPayment(t.app, key, { amount: 123456 }, '9800000002');
    await refund(t.app, key, paid.transactionId, { amount: 23456 });
    const page = await browser.get('/dashboard/transactions');
    const text = pageText(page.body);
    expect(text).toContain('Rs. 1,234.56');
    expect(text).toContain('Rs. 37.04'); // 3% fee
    expect(text).toContain('-Rs. 234.56');
    expect(text).toContain('98XXXXXXX2');
    expect(text).not.toContain('9800000002');
    expect(text).toContain('Partially refunded');
    expect(page.body).toContain(`href="/dashboard/payments/${paid.pidx}"`);
  });

  it('says so when there is nothing to show', async () => {
    const { browser } = await signedUp();
    const page = await browser.get('/dashboard/transactions');
    expect(page.status).toBe(200);
    expect(pageText(page.body)).toContain('No transactions found.');
    expect(rowIdxs(page.body)).toEqual([]);
  });
});

describe('filters and search', () => {
  it('filter by status and dates exactly as the API does', async () => {
    const { browser, key, api, fields } = await signedUp();
    const today = localDay(t.clock.now(), t.ctx.config.timeZone);
    await paidPayment(t.app, key);
    await paidPayment(t.app, key, {}, '9800000007'); // held: Confirmed
    t.clock.advance(2 * 24 * 60 * 60);
    const later = localDay(t.clock.now(), t.ctx.config.timeZone);
    await paidPayment(t.app, key);
    // Two days on, the session has long expired: log in again.
    expect((await browser.get('/dashboard/transactions')).status).toBe(303);
    expect((await browser.logIn(fields.email, fields.password)).status).toBe(303);

    const queries: Record<string, string>[] = [{ status: 'Confirmed' }, { status: 'Completed' }, { from: later }, { to: today }, { from: today, to: addDays(today, 1), status: 'Completed' }];
    for (const query of queries) {
      const page = await browser.get(`/dashboard/transactions?${new URLSearchParams(query)}`);
      expect(page.status).toBe(200);
      const shown = rowIdxs(page.body);
      expect(shown, JSON.stringify(query)).toEqual(await apiIdxs(api, query));
      expect(shown.length).toBeGreaterThan(0);
    }
    expect(rowIdxs((await browser.get(`/dashboard/transactions?from=${later}&status=Completed`)).body)).toHaveLength(1);
  });

  it('keeps the filters in the form, the page links and the CSV link', async () => {
    const { browser, key } = await signedUp();
    await paidPayment(t.app, key);
    const page = await browser.get('/dashboard/transactions?status=Completed&from=2020-01-01&q=x');
    expect(page.body).toContain('<option value="Completed" selected>');
    expect(page.body).toContain('value="2020-01-01"');
    expect(page.body).toContain('href="/dashboard/transactions.csv?q=x&amp;status=Completed&amp;from=2020-01-01"');
  });

  it('finds a payment by pidx or by purchase_order_id, with its refunds', async () => {
    const { browser, key, api } = await signedUp();
    const wanted = await paidPayment(t.app, key, { purchase_order_id: 'INV-2026-0042' });
    await refund(t.app, key, wanted.transactionId, { amount: 100 });
    await paidPayment(t.app, key);
    const all = await apiIdxs(api);
    const ofWanted = await apiIdxs(api, { purchase_order_id: 'INV-2026-0042' });
    expect(ofWanted).toHaveLength(2);

    expect(rowIdxs((await browser.get(`/dashboard/transactions?q=${wanted.pidx}`)).body)).toEqual(ofWanted);
    expect(rowIdxs((await browser.get('/dashboard/transactions?q=INV-2026-0042')).body)).toEqual(ofWanted);
    expect(rowIdxs((await browser.get('/dashboard/transactions?q=+INV-2026-0042+')).body)).toEqual(ofWanted);
    expect(rowIdxs((await browser.get('/dashboard/transactions?q=INV-2026')).body)).toEqual([]);
    expect(rowIdxs((await browser.get('/dashboard/transactions?q=')).body)).toEqual(all);
  });

  it('explains a filter it cannot read', async () => {
    const { browser } = await signedUp();
    const page = await browser.get('/dashboard/transactions?from=2026-13-45&status=Paid');
    expect(page.status).toBe(400);
    const text = pageText(page.body);
    expect(text).toContain('From: Date has wrong format.');
    expect(text).toContain('Status: "Paid" is not a valid choice.');
  });
});

describe('the CSV export', () => {
  const parseCsv = (text: string) => text.trimEnd().split('\r\n');

  it('is the whole filtered list, more than a screen page of it, as the API gives it', async () => {
    const { browser, key, api } = await signedUp();
    const paid = await paidPayment(t.app, key, { amount: 100_000 });
    for (let i = 0; i < 21; i++) await refund(t.app, key, paid.transactionId, { amount: 10 });
    await paidPayment(t.app, key, {}, '9800000007');

    const response = await browser.get('/dashboard/transactions.csv?status=Completed');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="bhuktani-test-transactions-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = parseCsv(response.body);
    expect(lines[0]).toBe(CSV_HEADER.join(','));
    const { body } = await api.transactions({ page_size: 100, status: 'Completed' });
    expect(lines).toHaveLength(1 + 22);
    expect(lines.slice(1).map((l) => l.split(',')[1])).toEqual(body.records.map((r: { idx: string }) => r.idx));
    const [payment] = body.records.filter((r: { type: { name: string } }) => r.type.name === 'Wallet payment');
    expect(lines).toContain(
      [payment.created_on, payment.idx, 'Wallet payment', 'Completed', paid.pidx, paid.purchaseOrderId, 100000, 3000, '1000.00', '30.00', 'true', payment.user.name, '98XXXXXXX1', ''].join(','),
    );
  });

  it('quotes what needs quoting and never starts a cell with a formula', async () => {
    const { browser, key } = await signedUp();
    await paidPayment(t.app, key, { purchase_order_id: '=HYPERLINK("http://evil.example","Click"),1' });
    await paidPayment(t.app, key, { purchase_order_id: '@SUM(A1)' });
    const csv = (await browser.get('/dashboard/transactions.csv')).body;
    expect(csv).toContain(`,"'=HYPERLINK(""http://evil.example"",""Click""),1",`);
    expect(csv).toContain(`,'@SUM(A1),`);
    expect(csv).not.toMatch(/(^|,)"?[=@]/m);
  });

  it('is refused, with the reason, for a filter it cannot read', async () => {
    const { browser } = await signedUp();
    const response = await browser.get('/dashboard/transactions.csv?to=yesterday');
    expect(response.status).toBe(400);
    expect(response.body).toContain('To: Date has wrong format.');
  });
});
