// The console's payouts driven as operators' browsers would: live payouts by state, the export to
// the bank (its file, and each payout exported once), marking Paid with the reference or Failed with a
// reason (audited, the merchant sees it), two operators marking one payout (one wins, the other gets
// 409), and support reading only.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { merchantApi, validInitiate } from '../../test/api-client.js';
import { newOperator, operatorBrowser, type OperatorBrowser, type TestOperator } from '../../test/console-client.js';
import { merchantBrowser, pageText } from '../../test/dashboard-client.js';
import { merchantIn } from '../../test/merchant-approval.js';
import { operatorWallet, payerBrowser, payWithLiveWallet } from '../../test/portal-client.js';
import { startTestApp, type TestApp } from '../../test/test-app.js';
import { listAudit } from '../audit/audit-store.js';
import { verifyLedger } from '../ledger/verify-ledger.js';
import { requestPayout } from '../settlements/request-payout.js';
import { settlementBalance } from '../settlements/settlement-balance.js';
import { findPayout } from '../settlements/payout-store.js';

// Its own database: an export takes every live Requested payout of the store.
let t: TestApp;
const signedIn: Partial<Record<TestOperator['role'], OperatorBrowser>> = {};

beforeAll(async () => {
  t = await startTestApp({ ownDb: true });
  for (const role of ['admin', 'support', 'finance'] as const) {
    const browser = operatorBrowser(t.app, t.ctx);
    expect((await browser.signIn(await newOperator(t.ctx, role))).status).toBe(303);
    signedIn[role] = browser;
  }
});
afterAll(() => t.close());
afterEach(async () => {
  expect((await verifyLedger(t.db)).filter((r) => !r.holds)).toEqual([]);
});

const as = (role: TestOperator['role']) => signedIn[role]!;

/** An approved merchant (with its bank account) paid `amount` live, and a live payout of all of it requested. */
async function livePayout(amount = 20_000) {
  const shop = await merchantIn(t.ctx, 'approved');
  const payer = await operatorWallet(t.ctx, { balance: amount });
  const { body } = await merchantApi(t.app, shop.live_secret_key).initiate(validInitiate({ amount }));
  expect((await payWithLiveWallet(payerBrowser(t.app), t.sentOtps, body.pidx, payer)).status).toBe(303);
  const owner = { merchantId: shop.merchant.id, environment: 'live' as const };
  const payout = await requestPayout(t.ctx, { ...owner, requestedBy: 'api' });
  return { shop, owner, payout };
}

/** Parses a CSV without quoted commas into objects by the header. */
function csvRows(text: string): Record<string, string>[] {
  const [header, ...lines] = text.trim().split('\r\n').map((line) => line.split(','));
  return lines.map((cells) => Object.fromEntries(header.map((name, i) => [name, cells[i]])));
}

async function exportFile(role: TestOperator['role']) {
  await as(role).get('/console/payouts');
  return as(role).post('/console/payouts/export');
}

async function mark(role: TestOperator['role'], idx: string, what: 'paid' | 'failed', fields: Record<string, string>) {
  await as(role).get(`/console/payouts/${idx}`);
  return as(role).post(`/console/payouts/${idx}/${what}`, fields);
}

describe('console payouts', () => {
  it('lists live payouts by state, exports them once for the bank, and marks one Paid', async () => {
    const { shop, owner, payout } = await livePayout(20_000);
    const second = await livePayout(30_000);
    const overview = await as('support').get('/console');
    expect(overview.body).toContain('data-figure="payouts-requested">2 · Rs. 485.00</dd>');
    expect(overview.body).toContain('data-figure="payouts-processing">0 · Rs. 0.00</dd>');
    const list = await as('finance').get('/console/payouts');
    expect(list.status).toBe(200);
    expect(list.body).toContain('aria-current="page">Payouts</a>');
    expect(pageText(list.body)).toContain('2 live payouts waiting, Rs. 485.00 in all.');
    expect(list.body).toContain(`href="/console/payouts/${payout.idx}"`);
    expect(pageText(list.body)).toContain(shop.merchant.name);

    const file = await exportFile('finance');
    expect(file.status).toBe(200);
    expect(file.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(String(file.headers['content-disposition'])).toMatch(/^attachment; filename="bhuktani-payouts-\d{4}-\d{2}-\d{2}-\w+\.csv"$/);
    expect(csvRows(file.body)).toEqual([
      { bank: 'Nepal Bank Ltd.', branch: 'New Road', account_name: 'Himalayan Tea House Pvt. Ltd.', account_number: '001234567890', amount: '194.00', reference: payout.idx },
      { bank: 'Nepal Bank Ltd.', branch: 'New Road', account_name: 'Himalayan Tea House Pvt. Ltd.', account_number: '001234567890', amount: '291.00', reference: second.payout.idx },
    ]);
    expect((await findPayout(t.db, payout.idx))!.state).toBe('Processing');
    expect((await as('finance').get('/console')).body).toContain('data-figure="payouts-processing">2 · Rs. 485.00</dd>');
    // Exported once: a second export has nothing to take.
    const again = await exportFile('admin');
    expect(again.status).toBe(303);
    expect(pageText((await as('admin').get(again.location!)).body)).toContain('No live payouts were waiting');
    const processing = await as('finance').get('/console/payouts?state=Processing');
    expect(pageText(processing.body)).toContain(shop.merchant.name);
    // The file again, for an export whose download was lost: the same rows, nothing moves.
    expect(processing.body).toContain('href="/console/payouts/processing.csv"');
    const copy = await as('finance').get('/console/payouts/processing.csv');
    expect(copy.status).toBe(200);
    expect(copy.body).toBe(file.body);
    expect((await as('support').get('/console/payouts/processing.csv')).status).toBe(403);
    expect((await as('support').get('/console/payouts?state=Processing')).body).not.toContain('processing.csv');

    const paid = await mark('finance', payout.idx, 'paid', { reference: '  NBL-2026-0001 ' });
    expect(paid.status).toBe(303);
    expect(paid.location).toBe(`/console/payouts/${payout.idx}?done=paid`);
    const page = pageText((await as('finance').get(paid.location!)).body);
    expect(page).toContain('The payout is marked Paid');
    expect(page).toContain('NBL-2026-0001');
    expect(page).toContain('payout.mark_paid');
    expect(await settlementBalance(t.ctx, owner)).toEqual({ pending: 0, available: 0, clearing: 0 });
    const [entry] = await listAudit(t.db, { objectType: 'payout', objectId: payout.idx, action: 'payout.mark_paid', limit: 5 });
    expect(entry).toMatchObject({ before: { state: 'Processing' }, after: { state: 'Paid', bank_reference: 'NBL-2026-0001' } });
    expect(entry.actor.label).toMatch(/^ops-finance-/);
    expect(await listAudit(t.db, { objectType: 'payout', objectId: payout.idx, action: 'payout.export', limit: 5 })).toHaveLength(1);
  });

  it('marks a payout Failed with a reason: the money is back in the available balance and the merchant reads why', async () => {
    const { shop, owner, payout } = await livePayout(10_000);
    expect((await mark('admin', payout.idx, 'failed', { reason: '' })).status).toBe(400);
    const noReference = await mark('admin', payout.idx, 'paid', { reference: 'X' });
    expect(noReference.status).toBe(409);
    expect(pageText(noReference.body)).toContain('is Requested; only a Processing payout can be marked paid');

    const failed = await mark('admin', payout.idx, 'failed', { reason: 'Account closed at the bank' });
    expect(failed.status).toBe(303);
    expect(await settlementBalance(t.ctx, owner)).toEqual({ pending: 0, available: 9_700, clearing: 0 });

    const merchant = merchantBrowser(t.app);
    expect((await merchant.logIn(shop.merchant.email, 'correct horse battery')).status).toBe(303);
    await merchant.useEnvironment('live');
    const settlements = pageText((await merchant.get('/dashboard/settlements')).body);
    expect(settlements).toContain('Failed');
    expect(settlements).toContain('Account closed at the bank');
  });

  it('of two operators marking one payout at once, one wins and the other is told (409)', async () => {
    const { payout } = await livePayout(10_000);
    await exportFile('finance');
    await Promise.all([as('finance').get(`/console/payouts/${payout.idx}`), as('admin').get(`/console/payouts/${payout.idx}`)]);
    const answers = await Promise.all([
      as('finance').post(`/console/payouts/${payout.idx}/paid`, { reference: 'REF-FINANCE' }),
      as('admin').post(`/console/payouts/${payout.idx}/failed`, { reason: 'Wrong account name' }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([303, 409]);
    const loser = answers.find((a) => a.status === 409)!;
    expect(pageText(loser.body)).toMatch(/is (Paid|Failed); only a|was moved by someone else meanwhile/);
    const final = (await findPayout(t.db, payout.idx))!;
    expect(['Paid', 'Failed']).toContain(final.state);
    const moves = await t.db.query<{ action: string }>(`SELECT action FROM audit_log WHERE object_type = 'payout' AND object_id = $1 AND action LIKE 'payout.mark%'`, [payout.idx]);
    expect(moves).toHaveLength(1);
  });

  it('support reads the payouts but may neither export nor mark them', async () => {
    const { payout } = await livePayout(10_000);
    const list = await as('support').get('/console/payouts');
    expect(list.status).toBe(200);
    expect(list.body).not.toContain('action="/console/payouts/export"');
    expect(pageText(list.body)).toContain('Your role may not export payouts.');
    const page = await as('support').get(`/console/payouts/${payout.idx}`);
    expect(page.status).toBe(200);
    expect(page.body).not.toContain(`action="/console/payouts/${payout.idx}/failed"`);
    for (const [path, fields] of [
      ['/console/payouts/export', {}],
      [`/console/payouts/${payout.idx}/failed`, { reason: 'no' }],
      [`/console/payouts/${payout.idx}/paid`, { reference: 'no' }],
    ] as const) {
      const answer = await as('support').post(path, fields);
      expect(answer.status).toBe(403);
    }
    expect((await findPayout(t.db, payout.idx))!.state).toBe('Requested');
    expect((await as('support').get('/console/payouts/no-such-payout')).status).toBe(404);
  });

  it('leaves test payouts to the sandbox bank', async () => {
    const shop = await merchantIn(t.ctx, 'approved');
    const { body } = await merchantApi(t.app, shop.test_secret_key).initiate(validInitiate({ amount: 10_000 }));
    expect((await payerBrowser(t.app).pay(body.pidx, '9800000001')).status).toBe(303);
    const payout = await requestPayout(t.ctx, { merchantId: shop.merchant.id, environment: 'test', requestedBy: 'api' });
    expect(pageText((await as('finance').get('/console/payouts')).body)).not.toContain(payout.idx);
    const refused = await mark('finance', payout.idx, 'failed', { reason: 'no' });
    expect(refused.status).toBe(409);
    expect((await findPayout(t.db, payout.idx))!.state).toBe('Requested');
  });
});
