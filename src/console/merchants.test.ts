// The console's merchants pages: the approval queue, a merchant's page (details, masked bank
// account, key prefixes only), and the decisions through F's use cases: approve (the live key then
// works), suspend (live refused 403), reject with a reason, fee changes; roles refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { merchantApi, validInitiate } from '../../test/api-client.js';
import { newOperator, operatorBrowser, type OperatorBrowser } from '../../test/console-client.js';
import { pageText } from '../../test/dashboard-client.js';
import { merchantIn } from '../../test/merchant-approval.js';
import { startTestApp, type TestApp } from '../../test/test-app.js';
import { listAudit } from '../audit/audit-store.js';

let t: TestApp;
let admin: OperatorBrowser;
let support: OperatorBrowser;

beforeAll(async () => {
  t = await startTestApp();
  admin = operatorBrowser(t.app, t.ctx);
  await admin.signIn(await newOperator(t.ctx, 'admin'));
  support = operatorBrowser(t.app, t.ctx);
  await support.signIn(await newOperator(t.ctx, 'support'));
});
afterAll(() => t.close());

async function decide(browser: OperatorBrowser, idx: string, verb: string, fields: Record<string, string> = {}) {
  expect((await browser.get(`/console/merchants/${idx}`)).status).toBe(200);
  return browser.post(`/console/merchants/${idx}/${verb}`, { reason: '', ...fields });
}

describe('console merchants', () => {
  it('lists the approval queue and shows an applicant: details, masked bank account, key prefixes only', async () => {
    const applied = await merchantIn(t.ctx, 'applied');
    const queue = await admin.get('/console/merchants?status=applied');
    expect(queue.status).toBe(200);
    expect(pageText(queue.body)).toContain(applied.merchant.name);
    expect(pageText((await admin.get('/console/merchants?status=approved')).body)).not.toContain(applied.merchant.name);
    expect(pageText((await admin.get(`/console/merchants?q=${encodeURIComponent(applied.merchant.email.toUpperCase())}`)).body)).toContain(applied.merchant.name);

    const page = await admin.get(`/console/merchants/${applied.merchant.idx}`);
    const text = pageText(page.body);
    expect(text).toContain('Himalayan Tea House Pvt. Ltd.');
    expect(text).toContain('••••7890');
    expect(page.body).not.toContain('001234567890');
    expect(page.body).not.toContain(applied.live_secret_key);
    expect(page.body).not.toContain(applied.test_secret_key);
    expect(text).toContain(applied.live_secret_key.slice(0, 12));
    expect((await admin.get('/console/merchants/no-such-merchant')).status).toBe(404);
  });

  it('approves (the live key works), suspends (live 403), reactivates and changes the fee, each audited', async () => {
    const applied = await merchantIn(t.ctx, 'applied');
    const idx = applied.merchant.idx;
    const live = merchantApi(t.app, applied.live_secret_key);
    expect((await live.initiate(validInitiate())).status).toBe(403);

    const approved = await decide(admin, idx, 'approve');
    expect(approved.status).toBe(303);
    expect(approved.location).toBe(`/console/merchants/${idx}?done=approve`);
    expect((await live.initiate(validInitiate())).status).toBe(200);

    expect((await decide(admin, idx, 'suspend')).status).toBe(400);
    expect((await decide(admin, idx, 'suspend', { reason: 'Chargebacks under review' })).status).toBe(303);
    expect((await live.initiate(validInitiate())).status).toBe(403);
    expect((await decide(admin, idx, 'reactivate')).status).toBe(303);
    expect((await live.initiate(validInitiate())).status).toBe(200);

    expect((await decide(admin, idx, 'fee', { fee_bps: '250', reason: 'Volume discount' })).status).toBe(303);
    expect(pageText((await admin.get(`/console/merchants/${idx}`)).body)).toContain('2.5% (250 bps)');
    const badFee = await decide(admin, idx, 'fee', { fee_bps: '20000' });
    expect(badFee.status).toBe(400);

    const audit = await listAudit(t.db, { objectType: 'merchant', objectId: idx, limit: 10 });
    const byOperators = audit.filter((e) => e.actor.kind === 'operator');
    expect(byOperators.map((e) => e.action)).toEqual(['merchant.fee', 'merchant.reactivate', 'merchant.suspend', 'merchant.approve']);
    expect(byOperators[0]).toMatchObject({ reason: 'Volume discount', before: { fee_bps: 300 }, after: { fee_bps: 250 } });
  });

  it('rejects with the reason, and refuses a support operator and a forged form', async () => {
    const applied = await merchantIn(t.ctx, 'applied');
    const idx = applied.merchant.idx;
    expect(pageText((await support.get(`/console/merchants/${idx}`)).body)).toContain('Your role may not approve');
    expect((await decide(support, idx, 'approve')).status).toBe(403);
    expect((await admin.post(`/console/merchants/${idx}/approve`, { csrf_token: 'forged' })).status).toBe(403);
    const rejected = await decide(admin, idx, 'reject', { reason: 'The PAN does not match the legal name' });
    expect(rejected.status).toBe(303);
    const page = pageText((await admin.get(`/console/merchants/${idx}`)).body);
    expect(page).toContain('rejected');
    expect(page).toContain('The PAN does not match the legal name');
    expect((await decide(admin, idx, 'approve')).status).toBe(400);
  });
});
