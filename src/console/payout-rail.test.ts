// The console's payout rail as operators' browsers use it: an account NPI could not match shown with
// NPI's score and word beside the merchant's name, approved by finance with a reason (support reads
// only), its payout then paid; and live on NPI (the sandbox's member, as an operator would set it up):
// a live account without NCHL's bank code says why its payout waits, the bank file is refused, a
// payout's page shows NPI's ids, and a day reconciled with NPI's books shows each difference.
import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { merchantApi, validInitiate } from '../../test/api-client.js';
import { newOperator, operatorBrowser, type OperatorBrowser, type TestOperator } from '../../test/console-client.js';
import { pageText } from '../../test/dashboard-client.js';
import { merchantIn } from '../../test/merchant-approval.js';
import { npiBooksDiffer } from '../../test/npi-books.js';
import { operatorWallet, payerBrowser, payWithLiveWallet } from '../../test/portal-client.js';
import { startTestApp, type TestApp } from '../../test/test-app.js';
import { CLI_ACTOR } from '../audit/audit-entry.js';
import { runPayoutRails } from '../jobs/payout-rails-job.js';
import { verifyLedger } from '../ledger/verify-ledger.js';
import { changeBankAccount } from '../merchants/change-bank-account.js';
import { sandboxNpiSetup, setPayoutRail } from '../settlements/payout-rail-setup.js';
import { findPayout } from '../settlements/payout-store.js';
import { requestPayout } from '../settlements/request-payout.js';

let t: TestApp;
let signedIn: Record<TestOperator['role'], OperatorBrowser>;
const as = (role: TestOperator['role']) => signedIn[role];

/**
 * Its own store for each test: the payout rails' job moves every payout of the store it runs on, and
 * the live test shares the sandbox's NPI member with test (NPI's day report would list both).
 */
beforeEach(async () => {
  t = await startTestApp({ ownDb: true, config: { secretsKey: randomBytes(32), publicUrl: 'https://bhuktani.test', keyCacheSeconds: 0 } });
  signedIn = {} as typeof signedIn;
  for (const role of ['support', 'finance'] as const) {
    const browser = operatorBrowser(t.app, t.ctx);
    expect((await browser.signIn(await newOperator(t.ctx, role))).status).toBe(303);
    signedIn[role] = browser;
  }
});
afterEach(async () => {
  expect(await npiBooksDiffer(t.db)).toEqual([]);
  expect((await verifyLedger(t.db)).filter((r) => !r.holds)).toEqual([]);
  await t.close();
});

const account = (number: string, bankCode?: string) => ({ bank_name: 'Nepal Bank Ltd.', branch: 'New Road', account_name: 'Himalayan Tea House Pvt. Ltd.', account_number: number, ...(bankCode ? { bank_code: bankCode } : {}) });

describe('console payout rail', () => {
  it("shows an account NPI could not match with its score; finance approves it with a reason, and its payout goes", async () => {
    const shop = await merchantIn(t.ctx, 'approved');
    await changeBankAccount(t.ctx, { merchantId: shop.merchant.id, userId: shop.owner.id, account: account('012345678900002', '0401') });
    const { body } = await merchantApi(t.app, shop.test_secret_key).initiate(validInitiate({ amount: 10_000 }));
    expect((await payerBrowser(t.app).pay(body.pidx)).status).toBe(303);
    const payout = await requestPayout(t.ctx, { merchantId: shop.merchant.id, environment: 'test', requestedBy: 'api' });
    await runPayoutRails(t.ctx);

    const page = await as('support').get('/console/payout-rail');
    expect(page.status).toBe(200);
    const row = page.body.match(/<tr data-check="(\d+)">[\s\S]*?<\/tr>/)!;
    const text = pageText(row[0]);
    expect(text).toContain(shop.merchant.name);
    expect(text).toContain('Himalayan Tea House Pvt. Ltd.');
    expect(text).toMatch(/\d+ of 100/);
    expect(text).toContain('••••0002');
    expect(text).toContain('Your role may not approve accounts.');
    expect((await as('support').post(`/console/payout-rail/accounts/${row[1]}/approve`, { reason: 'looks fine' })).status).toBe(403);

    const queued = async () => Number(/^bhuktani_payouts_for_operators\{environment="test",why="account"\} (\d+)$/m.exec(await t.ctx.metrics.registry.metrics())?.[1]);
    expect(await queued()).toBe(1);
    await as('finance').get('/console/payout-rail');
    const blank = await as('finance').post(`/console/payout-rail/accounts/${row[1]}/approve`, { reason: '' });
    expect(blank.status).toBe(400);
    expect(pageText(blank.body)).toContain('Say why the account may be paid');
    const approved = await as('finance').post(`/console/payout-rail/accounts/${row[1]}/approve`, { reason: 'The bank’s letter confirms the holder.' });
    expect(approved.status).toBe(303);
    const after = await as('finance').get(approved.location!);
    expect(pageText(after.body)).toContain('The account is approved');
    expect(after.body).not.toContain(`data-check="${row[1]}"`);
    await runPayoutRails(t.ctx);
    expect((await findPayout(t.db, payout.idx))!.state).toBe('Paid');
  });

  it('live on NPI: a payout needs the bank code, the bank file is refused, NPI pays, and the day reconciles', async () => {
    // The sandbox's own member, set up for live as an operator would set up NCHL's.
    const sandbox = await sandboxNpiSetup(t.ctx);
    await setPayoutRail(t.ctx, { actor: CLI_ACTOR, environment: 'live', rail: 'npi', values: { ...sandbox.settings, ...sandbox.credentials } });
    const shop = await merchantIn(t.ctx, 'approved');
    const payer = await operatorWallet(t.ctx, { balance: 50_000 });
    const { body } = await merchantApi(t.app, shop.live_secret_key).initiate(validInitiate({ amount: 50_000 }));
    expect((await payWithLiveWallet(payerBrowser(t.app), t.sentOtps, body.pidx, payer)).status).toBe(303);
    const owner = { merchantId: shop.merchant.id, environment: 'live' as const };

    // An account without NCHL's bank code: the request is refused, nothing held.
    const refusedRequest = await t.app.inject({ method: 'POST', url: '/api/v2/settlements/', headers: { authorization: `Key ${shop.live_secret_key}` }, payload: { amount: 10_000 } });
    expect([refusedRequest.statusCode, refusedRequest.json().detail]).toEqual([400, expect.stringContaining('4-digit code of your bank')]);
    // One requested before live went through NPI (as a bank-file payout would be) says why it waits.
    await t.db.query("DELETE FROM payout_rails WHERE environment = 'live'");
    const waiting = await requestPayout(t.ctx, { ...owner, amount: 10_000, requestedBy: 'api' });
    await setPayoutRail(t.ctx, { actor: CLI_ACTOR, environment: 'live', rail: 'npi', values: { ...sandbox.settings, ...sandbox.credentials } });
    await runPayoutRails(t.ctx);
    const waitingPage = pageText((await as('finance').get(`/console/payouts/${waiting.idx}`)).body);
    expect(waitingPage).toContain('names no NCHL bank code');
    const refused = await as('finance').post('/console/payouts/export');
    expect(refused.status).toBe(303);
    expect(pageText((await as('finance').get(refused.location!)).body)).toContain('The live payout rail is NPI: payouts go by themselves.');
    expect((await findPayout(t.db, waiting.idx))!.state).toBe('Requested');
    // The merchant names its bank; the payout that waited is failed by finance (its money back), and asked again.
    await changeBankAccount(t.ctx, { merchantId: shop.merchant.id, userId: shop.owner.id, account: account('0012-3456-7890', '0401') });
    await as('finance').get(`/console/payouts/${waiting.idx}`);
    expect((await as('finance').post(`/console/payouts/${waiting.idx}/failed`, { reason: 'No bank code: asked again' })).status).toBe(303);
    const payout = await requestPayout(t.ctx, { ...owner, amount: 20_000, requestedBy: 'api' });
    await runPayoutRails(t.ctx);
    expect((await findPayout(t.db, payout.idx))!).toMatchObject({ state: 'Paid', bank_reference: expect.stringMatching(/^NPI connectIPS R\w+\//) });
    const paidPage = pageText((await as('support').get(`/console/payouts/${payout.idx}`)).body);
    expect(paidPage).toContain('Through NPI');
    expect(paidPage).toContain(`/ ${payout.idx}`);
    expect(paidPage).toContain('connectIPS (real time)');

    const day = new Date(t.clock.now().getTime() + 345 * 60_000).toISOString().slice(0, 10);
    const agree = await as('support').get(`/console/payout-rail?date=${day}&env=live`);
    expect(pageText(agree.body)).toMatch(new RegExp(`${day} \\(live\\): NPI lists 1, Bhuktani posted 1, 1 matched, 0 differences\\.`));
    await t.db.query("UPDATE payouts SET state = 'Failed', paid_at = NULL, bank_reference = NULL, failed_at = now(), failure_reason = 'x' WHERE idx = $1", [payout.idx]);
    const differs = await as('support').get(`/console/payout-rail?date=${day}&env=live`);
    expect(pageText(differs.body)).toContain('1 difference.');
    expect(pageText(differs.body)).toContain('NPI says paid, the payout is Failed');
    const bad = await as('support').get('/console/payout-rail?date=someday&env=live');
    expect(pageText(bad.body)).toContain('Give the day as YYYY-MM-DD.');
    // Put back as NPI's books have it, for the books' check after the test.
    await t.db.query("UPDATE payouts SET state = 'Paid', paid_at = now(), bank_reference = 'restored', failed_at = NULL, failure_reason = NULL WHERE idx = $1", [payout.idx]);
  });
});
