// The Settlements page driven as a merchant's browser would: the balance, a payout of all or part of
// it with clear errors, the sandbox bank paying it, the statement and its CSV adding up to the
// payout, live payouts only once approved with a bank account, roles that may only look, and
// another merchant's or the other environment's payout not found.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { merchantApi, refund, validInitiate } from '../../test/api-client.js';
import { mailedLink, merchantBrowser, pageText, paidPayment, type MerchantBrowser, unverifiedSignUp } from '../../test/dashboard-client.js';
import { approveSignedUp } from '../../test/merchant-approval.js';
import { operatorWallet, payWithLiveWallet, payerBrowser } from '../../test/portal-client.js';
import { loggedInAs, teamMember } from '../../test/team-client.js';
import { startTestApp, type TestApp } from '../../test/test-app.js';
import { runPayoutRails } from '../jobs/payout-rails-job.js';
import { verifyLedger } from '../ledger/verify-ledger.js';
import { settlementBalance } from '../settlements/settlement-balance.js';

// Its own database: the sandbox bank it runs moves every test payout of the store.
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ ownDb: true });
});
afterAll(() => t.close());
afterEach(async () => {
  expect((await verifyLedger(t.db)).filter((r) => !r.holds)).toEqual([]);
});

/** A merchant signed up on the website, with the paid test payments of `amounts` (fee 3%); `unverified`: from before sign-ups confirmed the e-mail. */
async function shop(amounts: number[] = [], options: { unverified?: boolean } = {}) {
  const browser = merchantBrowser(t.app);
  const { fields, keys } = options.unverified ? await unverifiedSignUp(t.ctx, browser) : await browser.signUp();
  const [{ id, idx }] = await t.db.query<{ id: number; idx: string }>('SELECT id, idx FROM merchants WHERE email = $1', [fields.email]);
  const payments = [];
  for (const amount of amounts) payments.push(await paidPayment(t.app, keys.test, { amount }));
  return { browser, fields, keys, id, idx, payments };
}

const figure = (body: string, testId: string) => pageText(new RegExp(`<div class="figure" data-testid="${testId}">[\\s\\S]*?</div>`).exec(body)![0]);
const payoutIdxs = (body: string) => [...body.matchAll(/<tr data-idx="([^"]+)" data-state="(\w+)">/g)].map((m) => ({ idx: m[1], state: m[2] }));

/** Parses the statement CSV (no quoted commas in these rows) into objects by the header. */
function csvRows(text: string): Record<string, string>[] {
  const [header, ...lines] = text.trim().split('\r\n').map((line) => line.split(','));
  return lines.map((cells) => Object.fromEntries(header.map((name, i) => [name, cells[i]])));
}

async function requestPayout(browser: MerchantBrowser, fields: Record<string, string>) {
  await browser.get('/dashboard/settlements');
  return browser.post('/dashboard/settlements/payouts', fields);
}

describe('the Settlements page', () => {
  it('shows the balance, pays out all that is available, and NPI\'s simulator pays it', async () => {
    const { browser } = await shop([10_000, 5_000]);
    const page = await browser.get('/dashboard/settlements');
    expect(page.status).toBe(200);
    expect(page.body).toContain('aria-current="page">Settlements</a>');
    expect(figure(page.body, 'available')).toContain('Rs. 145.50');
    expect(figure(page.body, 'pending')).toContain('Rs. 0.00');
    expect(pageText(page.body)).toContain('Test payouts go through NPI’s sandbox');
    expect(pageText(page.body)).toContain('No payouts yet.');

    const requested = await browser.post('/dashboard/settlements/payouts', { payout: 'all' });
    expect(requested.status).toBe(303);
    expect(requested.location).toBe('/dashboard/settlements?done=requested');
    const after = await browser.get(requested.location!);
    expect(pageText(after.body)).toContain('Payout requested.');
    expect(figure(after.body, 'available')).toContain('Rs. 0.00');
    expect(figure(after.body, 'clearing')).toContain('Rs. 145.50');
    const [payout] = payoutIdxs(after.body);
    expect(payout.state).toBe('Requested');

    await runPayoutRails(t.ctx);
    const paid = await browser.get('/dashboard/settlements');
    expect(payoutIdxs(paid.body)).toEqual([{ idx: payout.idx, state: 'Paid' }]);
    expect(pageText(paid.body)).toMatch(new RegExp(`NPI connectIPS R\\w+/${payout.idx}`));
    expect(figure(paid.body, 'clearing')).toContain('Rs. 0.00');
  });

  it('pays out an amount in rupees, and refuses what is not available with a clear message', async () => {
    const { browser, id } = await shop([10_000]);
    const owner = { merchantId: id, environment: 'test' as const };

    const tooMuch = await requestPayout(browser, { payout: 'amount', amount: '97.01' });
    expect(tooMuch.status).toBe(400);
    expect(pageText(tooMuch.body)).toContain('That is more than is available: at most Rs. 97.00.');
    expect(tooMuch.body).toContain('value="97.01"');
    for (const amount of ['', 'abc', '0', '-5', '1.234']) {
      const refused = await requestPayout(browser, { payout: 'amount', amount });
      expect(refused.status).toBe(400);
      expect(pageText(refused.body)).toContain('Enter an amount in rupees greater than zero');
    }
    expect(await settlementBalance(t.ctx, owner)).toEqual({ pending: 0, available: 9_700, clearing: 0 });

    expect((await requestPayout(browser, { payout: 'amount', amount: '40.50' })).status).toBe(303);
    expect(await settlementBalance(t.ctx, owner)).toEqual({ pending: 0, available: 5_650, clearing: 4_050 });
    expect((await requestPayout(browser, { payout: 'all' })).status).toBe(303);
    const nothing = await requestPayout(browser, { payout: 'all' });
    expect(nothing.status).toBe(400);
    expect(pageText(nothing.body)).toContain('No balance is available for a payout yet.');

    // A form without its token moves nothing.
    const forged = await browser.post('/dashboard/settlements/payouts', { payout: 'all', csrf_token: 'forged' });
    expect(forged.status).toBe(403);
    expect(payoutIdxs((await browser.get('/dashboard/settlements')).body)).toHaveLength(2);
  });

  it('shows a statement whose records and totals add up to the payout, as a page and as CSV', async () => {
    const { browser, keys } = await shop([10_000, 20_000]);
    const first = await paidPayment(t.app, keys.test, { amount: 5_000 });
    // A partial refund of the first payment, then a first payout of part of the balance.
    const refunded = await refund(t.app, keys.test, first.transactionId, { amount: 1_000 });
    expect(refunded.status).toBe(200);
    expect((await requestPayout(browser, { payout: 'amount', amount: '100' })).status).toBe(303);
    // 97 + 194 + 48.50 - 10 = 329.50 available; 100 paid out, 229.50 left in the balance.
    const [partial] = payoutIdxs((await browser.get('/dashboard/settlements')).body);
    const statement = await browser.get(`/dashboard/settlements/${partial.idx}`);
    expect(statement.status).toBe(200);
    const text = pageText(statement.body);
    expect(text).toContain('Payout statement');
    expect(pageText(/<tr data-testid="total-payments">[\s\S]*?<\/tr>/.exec(statement.body)![0])).toContain('Rs. 350.00');
    expect(pageText(/<tr data-testid="total-fees">[\s\S]*?<\/tr>/.exec(statement.body)![0])).toContain('-Rs. 10.50');
    expect(pageText(/<tr data-testid="total-refunds">[\s\S]*?<\/tr>/.exec(statement.body)![0])).toContain('-Rs. 10.00');
    expect(pageText(/<tr data-testid="total-left">[\s\S]*?<\/tr>/.exec(statement.body)![0])).toContain('-Rs. 229.50');
    expect(pageText(/<tr data-testid="total-payout">[\s\S]*?<\/tr>/.exec(statement.body)![0])).toContain('Rs. 100.00');
    expect(text).toContain(first.purchaseOrderId);

    const csv = await browser.get(`/dashboard/settlements/${partial.idx}/statement.csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe(`attachment; filename="bhuktani-test-payout-${partial.idx}.csv"`);
    const rows = csvRows(csv.body);
    expect(rows.filter((r) => r.line === 'Payment')).toHaveLength(3);
    expect(rows.filter((r) => r.line === 'Refund').map((r) => r.net_paisa)).toEqual(['-1000']);
    const last = rows.at(-1)!;
    expect(last.line).toBe('Payout Requested');
    expect(Number(last.net_paisa)).toBe(10_000);
    expect(rows.slice(0, -1).reduce((sum, r) => sum + Number(r.net_paisa), 0)).toBe(10_000);

    // The next payout settles no records, only what the first one left: brought forward.
    const payerPaid = await paidPayment(t.app, keys.test, { amount: 1_000 });
    expect((await requestPayout(browser, { payout: 'all' })).status).toBe(303);
    const [next] = payoutIdxs((await browser.get('/dashboard/settlements')).body);
    const nextRows = csvRows((await browser.get(`/dashboard/settlements/${next.idx}/statement.csv`)).body);
    expect(nextRows.map((r) => [r.line, r.net_paisa])).toEqual([
      ['Payment', '970'],
      ['Brought forward from earlier payouts', '22950'],
      ['Left in your balance', '0'],
      ['Payout Requested', '23920'],
    ]);
    expect(nextRows[0].pidx).toBe(payerPaid.pidx);
    expect(pageText((await browser.get(`/dashboard/settlements/${next.idx}`)).body)).toContain('Brought forward from earlier payouts');
  });

  it('finds only the session merchant’s payouts, in the session’s environment', async () => {
    const mine = await shop([10_000]);
    const other = await shop([10_000]);
    expect((await requestPayout(other.browser, { payout: 'all' })).status).toBe(303);
    const [theirs] = payoutIdxs((await other.browser.get('/dashboard/settlements')).body);
    for (const path of [`/dashboard/settlements/${theirs.idx}`, `/dashboard/settlements/${theirs.idx}/statement.csv`, '/dashboard/settlements/no-such-payout']) {
      const answer = await mine.browser.get(path);
      expect(answer.status).toBe(404);
      expect(answer.body).not.toContain(theirs.idx);
    }
    // The test payout is not in the live data.
    await other.browser.useEnvironment('live');
    expect((await other.browser.get(`/dashboard/settlements/${theirs.idx}`)).status).toBe(404);
    expect(payoutIdxs((await other.browser.get('/dashboard/settlements')).body)).toEqual([]);
  });
});

describe('live payouts', () => {
  it('wait for approval and a bank account, go to that account, and wait for the operator', async () => {
    const { browser, fields, keys, id } = await shop([], { unverified: true });
    await browser.useEnvironment('live');
    const refused = await requestPayout(browser, { payout: 'all' });
    expect(refused.status).toBe(403);
    expect(pageText(refused.body)).toContain('not approved');

    await approveSignedUp(t.ctx, fields.email);
    const payer = await operatorWallet(t.ctx, { balance: 100_000 });
    const { body } = await merchantApi(t.app, keys.live).initiate(validInitiate({ amount: 20_000 }));
    expect((await payWithLiveWallet(payerBrowser(t.app), t.sentOtps, body.pidx, payer)).status).toBe(303);

    const page = await browser.get('/dashboard/settlements');
    expect(figure(page.body, 'available')).toContain('Rs. 194.00');
    expect(pageText(page.body)).toContain('Nepal Bank Ltd., New Road · Himalayan Tea House Pvt. Ltd. · ••••7890');
    expect(page.body).not.toContain('001234567890');
    // The owner has not followed the e-mailed link yet: no live money goes out at its request.
    const unverified = await browser.post('/dashboard/settlements/payouts', { payout: 'all' });
    expect(unverified.status).toBe(403);
    expect(pageText(unverified.body)).toContain('Confirm your e-mail address first');
    // Nor a live schedule chosen by it, which would pay out in its name later.
    const schedule = await browser.post('/dashboard/settlements/schedule', { frequency: 'daily', minimum_amount: '' });
    expect(schedule.status).toBe(403);
    expect(pageText(schedule.body)).toContain('Confirm your e-mail address first');
    expect(await t.db.query('SELECT 1 FROM payout_schedules WHERE merchant_id = $1', [id])).toEqual([]);
    await browser.get('/dashboard/account');
    await browser.post('/dashboard/account/verify-email');
    expect((await browser.get(mailedLink(t.logs, fields.email, 'verify-email'))).location).toBe('/dashboard/account?done=verified');
    expect((await browser.post('/dashboard/settlements/payouts', { payout: 'all' })).status).toBe(303);
    await runPayoutRails(t.ctx);
    await runPayoutRails(t.ctx);
    const [payout] = payoutIdxs((await browser.get('/dashboard/settlements')).body);
    expect(payout.state).toBe('Requested');
    const [row] = await t.db.query<{ account_number: string; requested_by: string }>('SELECT account_number, requested_by FROM payouts WHERE idx = $1', [payout.idx]);
    expect(row).toEqual({ account_number: '001234567890', requested_by: fields.email });
    expect(await settlementBalance(t.ctx, { merchantId: id, environment: 'test' })).toMatchObject({ available: 0, clearing: 0 });
  });
});

describe('roles', () => {
  const member = async (merchantId: number, role: 'viewer' | 'developer' | 'finance') => loggedInAs(t.app, await teamMember(t.ctx, merchantId, role));

  it('viewers and developers look but may not request payouts or change the schedule; finance may', async () => {
    const { id, browser: owner } = await shop([10_000, 10_000]);
    expect((await requestPayout(owner, { payout: 'amount', amount: '97' })).status).toBe(303);
    const [payout] = payoutIdxs((await owner.get('/dashboard/settlements')).body);
    for (const role of ['viewer', 'developer'] as const) {
      const browser = await member(id, role);
      const page = await browser.get('/dashboard/settlements');
      expect(page.status).toBe(200);
      expect(figure(page.body, 'available')).toContain('Rs. 97.00');
      expect(page.body).not.toContain('action="/dashboard/settlements/payouts"');
      expect(page.body).not.toContain('action="/dashboard/settlements/schedule"');
      expect(pageText(page.body)).toContain('Your role may not request payouts.');
      // Posted by hand with a valid token: refused all the same.
      for (const [path, fields] of [
        ['/dashboard/settlements/payouts', { payout: 'all' }],
        ['/dashboard/settlements/schedule', { frequency: 'daily', minimum_amount: '0' }],
      ] as const) {
        const answer = await browser.post(path, fields);
        expect(answer.status).toBe(403);
        expect(pageText(answer.body)).toContain(`Your role (${role}) may not do this.`);
      }
      // The statement's CSV is an export, like the transactions': not for these roles either.
      const statement = await browser.get(`/dashboard/settlements/${payout.idx}`);
      expect(statement.status).toBe(200);
      expect(statement.body).not.toContain('statement.csv');
      expect((await browser.get(`/dashboard/settlements/${payout.idx}/statement.csv`)).status).toBe(403);
    }
    expect(await settlementBalance(t.ctx, { merchantId: id, environment: 'test' })).toMatchObject({ available: 9_700, clearing: 9_700 });
    const finance = await member(id, 'finance');
    expect((await requestPayout(finance, { payout: 'all' })).status).toBe(303);
    expect(await settlementBalance(t.ctx, { merchantId: id, environment: 'test' })).toMatchObject({ available: 0, clearing: 19_400 });
    expect((await finance.get(`/dashboard/settlements/${payout.idx}/statement.csv`)).status).toBe(200);
  });
});
