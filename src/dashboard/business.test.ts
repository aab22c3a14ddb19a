// The "Go live" page: a merchant signed up on the website applies with its business details, sees
// its status as the operators decide, and on live data is told while live payments are off.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { merchantApi } from '../../test/api-client.js';
import { merchantBrowser, pageText, type MerchantBrowser } from '../../test/dashboard-client.js';
import { validApplication } from '../../test/merchant-approval.js';
import { startTestApp, type TestApp } from '../../test/test-app.js';
import { CLI_ACTOR } from '../audit/audit-entry.js';
import { createMerchant } from '../merchants/create-merchant.js';
import { approveMerchant, rejectMerchant, suspendMerchant } from '../merchants/decide-merchant.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

async function signedUp() {
  const browser = merchantBrowser(t.app);
  const { fields, keys } = await browser.signUp();
  const [{ idx }] = await t.db.query<{ idx: string }>('SELECT idx FROM merchants WHERE email = $1', [fields.email]);
  return { browser, keys, idx };
}

const statusText = async (browser: MerchantBrowser) => pageText(/<section class="panel approval-status"[\s\S]*?<\/section>/.exec((await browser.get('/dashboard/business')).body)![0]);
const form = (overrides: Record<string, string> = {}) => Object.fromEntries(Object.entries(validApplication(overrides)).map(([k, v]) => [k, String(v)]));
const LIVE_OFF = 'Live payments are off until your business is approved.';

describe('going live', () => {
  it('a new merchant applies, waits, is rejected with a reason, corrects, applies again and is approved', async () => {
    const { browser, keys, idx } = await signedUp();
    const first = await browser.get('/dashboard/business');
    expect(first.status).toBe(200);
    expect(pageText(first.body)).toContain('Test only');
    expect(first.body).toContain('<form method="post" action="/dashboard/business"');
    for (const label of ['Legal name', 'Type of business', 'PAN / VAT number', 'Registered address', 'Contact person', 'Phone', 'Website', 'Bank', 'Branch', 'Account name', 'Account number']) {
      expect(first.body).toContain(`>${label}</label>`);
    }

    // On live data every page says live is off, and where to go.
    await browser.useEnvironment('live');
    const home = pageText((await browser.get('/dashboard')).body);
    expect(home).toContain(LIVE_OFF);
    await browser.useEnvironment('test');
    expect(pageText((await browser.get('/dashboard')).body)).not.toContain(LIVE_OFF);

    await browser.get('/dashboard/business');
    const applied = await browser.post('/dashboard/business', form({ website: '' }));
    expect(applied.status).toBe(303);
    expect(applied.location).toBe('/dashboard/business');
    expect(await statusText(browser)).toContain('Applied · waiting for review');
    const waiting = pageText((await browser.get('/dashboard/business')).body);
    expect(waiting).toContain('601234567');
    expect(waiting).toContain('••••7890');
    expect(waiting).not.toContain('0012345678');
    expect((await browser.get('/dashboard/business')).body).not.toContain('action="/dashboard/business"');
    expect((await merchantApi(t.app, keys.live).initiate()).status).toBe(403);

    // Applying twice is refused with a clear message.
    const twice = await browser.post('/dashboard/business', form());
    expect(twice.status).toBe(409);
    expect(pageText(twice.body)).toContain('You have applied already');

    await rejectMerchant(t.ctx, { actor: CLI_ACTOR, merchantIdx: idx, reason: 'The PAN <b>does not</b> match the legal name.' });
    const rejected = await browser.get('/dashboard/business');
    expect(pageText(rejected.body)).toContain('Not approved');
    expect(rejected.body).toContain('The PAN &lt;b&gt;does not&lt;/b&gt; match the legal name.');
    expect(rejected.body).toContain('value="601234567"');

    expect((await browser.post('/dashboard/business', form({ pan_number: '601234568' }))).status).toBe(303);
    expect(await statusText(browser)).toContain('Applied · waiting for review');

    await approveMerchant(t.ctx, { actor: CLI_ACTOR, merchantIdx: idx });
    expect(await statusText(browser)).toContain('Approved');
    await browser.useEnvironment('live');
    expect(pageText((await browser.get('/dashboard')).body)).not.toContain('Live payments are off');
    expect((await merchantApi(t.app, keys.live).initiate()).status).toBe(200);

    await suspendMerchant(t.ctx, { actor: CLI_ACTOR, merchantIdx: idx, reason: 'Chargebacks under review.' });
    expect(pageText((await browser.get('/dashboard')).body)).toContain('Your merchant account is suspended: live payments are off.');
    const suspended = await statusText(browser);
    expect(suspended).toContain('Suspended');
    expect(suspended).toContain('Reason: Chargebacks under review.');
  });

  it('names every bad field, keeps what was typed (escaped), and saves nothing', async () => {
    const { browser, idx } = await signedUp();
    await browser.get('/dashboard/business');
    const bad = await browser.post('/dashboard/business', form({ legal_name: '<script>alert(1)</script>', pan_number: '12345', phone: 'call me', website: 'tea.example', account_number: '12', contact_person: '' }));
    expect(bad.status).toBe(400);
    const text = pageText(bad.body);
    expect(text).toContain('Please correct the fields marked below.');
    expect(text).toContain('Enter the PAN or VAT number: 9 digits.');
    expect(text).toContain('Enter a phone number');
    expect(text).toContain('Enter a valid URL.');
    expect(text).toContain('Enter the account number: 6 to 20 digits.');
    expect(text).toContain('This field may not be blank.');
    expect(bad.body).not.toContain('<script>alert(1)</script>');
    expect(bad.body).toContain('value="&lt;script&gt;alert(1)&lt;/script&gt;"');
    const [merchant] = await t.db.query<{ status: string }>('SELECT status FROM merchants WHERE idx = $1', [idx]);
    expect(merchant.status).toBe('new');
  });

  it('refuses a post without the session’s CSRF token', async () => {
    const { browser, idx } = await signedUp();
    const forged = await browser.post('/dashboard/business', { ...form(), csrf_token: 'forged' });
    expect(forged.status).toBe(403);
    const [merchant] = await t.db.query<{ status: string }>('SELECT status FROM merchants WHERE idx = $1', [idx]);
    expect(merchant.status).toBe('new');
  });

  it('a merchant made by the operator (bhuktani merchant create) is approved and not told to go live', async () => {
    const browser = merchantBrowser(t.app);
    const email = `operator-made-${Date.now()}@example.com`;
    await createMerchant(t.ctx, { name: 'Operator Made', email, password: 'correct horse battery' });
    expect((await browser.logIn(email, 'correct horse battery')).status).toBe(303);
    await browser.useEnvironment('live');
    expect(pageText((await browser.get('/dashboard')).body)).not.toContain('Live payments are off');
    expect(await statusText(browser)).toContain('Approved');
  });
});
