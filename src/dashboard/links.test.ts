// The dashboard's payment links, as a merchant's browser without JavaScript uses them: create one
// (fixed, or the payer's amount), what the form refuses, the list with totals, one link with its
// address, QR codes, counter card and payments, deactivate and activate, the transaction list naming
// the link, and live links refused to a merchant not approved for live payments.
import { afterAll, describe, expect, it } from 'vitest';
import { codeOf, linkPayer } from '../../test/link-client.js';
import { merchantBrowser, pageText, uniqueSignUp } from '../../test/dashboard-client.js';
import { approveSignedUp } from '../../test/merchant-approval.js';
import { loggedInAs, teamMember } from '../../test/team-client.js';
import { startTestApp } from '../../test/test-app.js';

const t = await startTestApp();
afterAll(() => t.close());
const PUBLIC_URL = t.ctx.config.publicUrl;

async function signedUp() {
  const browser = merchantBrowser(t.app);
  const { fields } = await browser.signUp(uniqueSignUp({ name: 'Chiya Pasal' }));
  const [{ id }] = await t.db.query<{ id: number }>('SELECT u.merchant_id AS id FROM merchant_users u JOIN merchant_people p ON p.id = u.person_id WHERE p.email = $1', [fields.email]);
  return { browser, fields, merchantId: id };
}

const linksOf = async (merchantId: number) => t.db.query<{ idx: string; name: string }>('SELECT idx, name FROM payment_links WHERE merchant_id = $1 ORDER BY id', [merchantId]);

describe('payment links on the dashboard', () => {
  it('creates a fixed-amount link, shows its address, QR codes and counter card, and lists it with what it collected', async () => {
    const { browser, merchantId } = await signedUp();
    await browser.get('/dashboard/links');
    const created = await browser.post('/dashboard/links', { name: 'Masala chiya', description: 'A cup, with biscuits.', pricing: 'fixed', amount: '60', max_payments: '', expires_on: '', ask: 'name' });
    expect(created.status, created.body.slice(0, 300)).toBe(303);
    const [link] = await linksOf(merchantId);
    expect(created.location).toBe(`/dashboard/links/${link.idx}?created=1`);

    const page = await browser.get(created.location!);
    const text = pageText(page.body);
    expect(text).toContain('Payment link created.');
    expect(text).toContain('Masala chiya');
    expect(text).toContain('Rs. 60.00');
    const url = /data-testid="link-url">([^<]+)</.exec(page.body)![1];
    const code = codeOf(url);
    expect(url).toBe(`${PUBLIC_URL}/l/${code}`);
    expect(page.body).toContain(`<img src="/l/${code}/qr.svg"`);
    expect(page.body).toContain(`href="/l/${code}/qr.png"`);
    expect(page.body).toContain('Deactivate link');

    const card = await browser.get(`/dashboard/links/${link.idx}/print`);
    expect(card.status).toBe(200);
    expect(pageText(card.body)).toContain('Masala chiya Rs. 60.00');
    expect(card.body).toContain(`src="/l/${code}/qr.svg"`);

    // A payer pays through it: the link's totals, its payments, and the transaction list naming it.
    const payer = linkPayer(t.app);
    const { pidx } = await payer.start(code, { name: 'Hari' });
    await payer.pay(pidx!);
    const after = pageText((await browser.get(`/dashboard/links/${link.idx}`)).body);
    expect(after).toContain('Paid 1');
    expect(after).toContain('Collected Rs. 60.00');
    expect(after).toContain(pidx!);
    expect(after).toContain('Hari');
    const list = await browser.get('/dashboard/links');
    expect(pageText(list.body)).toMatch(/Masala chiya\/l\/\w+ Rs\. 60\.00 Active 1 Rs\. 60\.00/);
    const transactions = await browser.get('/dashboard/transactions');
    expect(transactions.body).toContain(`<span class="via-link" data-testid="via-link">Link: <a href="/dashboard/links/${link.idx}">Masala chiya</a></span>`);
    const payment = await browser.get(`/dashboard/payments/${pidx}`);
    expect(payment.body).toContain(`href="/dashboard/links/${link.idx}"`);
  });

  it('writes rupees in lakhs on the list and the counter card, as the payer’s pages do', async () => {
    const { browser, merchantId } = await signedUp();
    await browser.get('/dashboard/links');
    expect((await browser.post('/dashboard/links', { name: 'Tuition, Baisakh', pricing: 'fixed', amount: '1,23,456.50' })).status).toBe(303);
    const [link] = await linksOf(merchantId);
    expect(pageText((await browser.get('/dashboard/links')).body)).toMatch(/Tuition, Baisakh\/l\/\w+ Rs\. 1,23,456\.50 Active/);
    expect(pageText((await browser.get(`/dashboard/links/${link.idx}`)).body)).toContain('Amount Rs. 1,23,456.50');
    // On the card, "Rs." and its amount are one word: a line never ends between them.
    expect((await browser.get(`/dashboard/links/${link.idx}/print`)).body).toContain('<p class="card-amount">Rs.\u00a01,23,456.50</p>');
  });

  it('says a link’s last day as the payer’s page says it', async () => {
    const { browser, merchantId } = await signedUp();
    await browser.get('/dashboard/links');
    expect((await browser.post('/dashboard/links', { name: 'Tuition', pricing: 'fixed', amount: '1500', expires_on: '2099-12-27' })).status).toBe(303);
    const [link] = await linksOf(merchantId);
    const details = await browser.get(`/dashboard/links/${link.idx}`);
    const said = 'Takes payments until the end of 27 December 2099.';
    expect(pageText(details.body)).toContain(`Expiry ${said}`);
    const code = codeOf(/data-testid="link-url">([^<]+)</.exec(details.body)![1]);
    expect(pageText((await linkPayer(t.app).open(code)).body)).toContain(said);
  });

  it('refuses what does not fit, each field said in rupees and in people’s words (not the API’s), and stores nothing', async () => {
    const { browser, merchantId } = await signedUp();
    await browser.get('/dashboard/links');
    const cases: [Record<string, string>, string[]][] = [
      [{ name: '', pricing: 'fixed', amount: '' }, ['Say what the payer pays for.', 'Enter an amount in rupees.']],
      [{ name: 'Tea', pricing: 'fixed', amount: 'sixty' }, ['Enter an amount in rupees, for example 1500 or 1,500.50.']],
      [{ name: 'Tea', pricing: 'fixed', amount: '0.05' }, ['At least Rs. 0.10.']],
      [{ name: 'Tea', pricing: 'range', min_amount: '500', max_amount: '100' }, ['The most must be at least the least.']],
      [{ name: 'Tea', pricing: 'fixed', amount: '60', expires_on: '2001-01-01' }, ['Choose a day: today or a later one.']],
      [{ name: 'Tea', pricing: 'fixed', amount: '60', max_payments: '0' }, ['A whole number from 1 to 10,00,000, or leave it empty for no limit.']],
      [{ name: 'Tea', pricing: 'fixed', amount: '60', ask: 'address' }, ['Choose from the list.']],
      [{ name: 'T'.repeat(121), pricing: 'fixed', amount: '60' }, ['Keep it to 120 characters or fewer.']],
    ];
    for (const [fields, messages] of cases) {
      const answer = await browser.post('/dashboard/links', fields);
      expect(answer.status, JSON.stringify(fields)).toBe(400);
      const text = pageText(answer.body);
      for (const message of messages) expect(text, JSON.stringify(fields)).toContain(message);
      expect(text, JSON.stringify(fields)).not.toMatch(/This field|Ensure this|Datetime|expiry/);
    }
    // The summary says where: a link to each field it marks, inside the form.
    const blank = await browser.post('/dashboard/links', { name: '', pricing: 'fixed', amount: '' });
    expect(blank.body).toMatch(/<form method="post" action="\/dashboard\/links"[^>]*>\s*<input type="hidden" name="csrf_token"[^>]*>\s*<div class="alert error" role="alert">/);
    expect(blank.body).toContain('<a href="#field-name">What is it for: Say what the payer pays for.</a>');
    expect(await linksOf(merchantId)).toEqual([]);
    // A range, with an expiry day and a most number, goes through.
    const range = await browser.post('/dashboard/links', { name: 'Tuition', pricing: 'range', min_amount: '1,000', max_amount: '1,00,000', expires_on: '2099-12-31', max_payments: '30' });
    expect(range.status).toBe(303);
    const [row] = await t.db.query('SELECT amount, min_amount, max_amount, max_payments, created_by FROM payment_links WHERE merchant_id = $1', [merchantId]);
    expect(row).toMatchObject({ amount: null, min_amount: 100_000, max_amount: 10_000_000, max_payments: 30 });
  });

  it('deactivates and activates; the link’s page follows', async () => {
    const { browser, merchantId } = await signedUp();
    await browser.get('/dashboard/links');
    await browser.post('/dashboard/links', { name: 'Tea', pricing: 'fixed', amount: '60' });
    const [link] = await linksOf(merchantId);
    const page = await browser.get(`/dashboard/links/${link.idx}`);
    const code = codeOf(/data-testid="link-url">([^<]+)</.exec(page.body)![1]);
    const off = await browser.post(`/dashboard/links/${link.idx}/deactivate`);
    expect(off.location).toBe(`/dashboard/links/${link.idx}?done=deactivated`);
    const shown = await browser.get(off.location!);
    expect(pageText(shown.body)).toContain('Inactive');
    expect(shown.body).toContain('Activate link');
    expect((await linkPayer(t.app).open(code)).status).toBe(410);
    expect((await browser.post(`/dashboard/links/${link.idx}/activate`)).status).toBe(303);
    expect((await linkPayer(t.app).open(code)).status).toBe(200);
    expect((await browser.post('/dashboard/links/not-a-link/deactivate')).status).toBe(404);
  });

  it('shows a viewer the links without the form, and refuses a live link to a merchant not approved', async () => {
    const { browser, merchantId, fields } = await signedUp();
    const viewer = await loggedInAs(t.app, await teamMember(t.ctx, merchantId, 'viewer'));
    const seen = await viewer.get('/dashboard/links');
    expect(seen.status).toBe(200);
    expect(seen.body).not.toContain('action="/dashboard/links"');

    await browser.useEnvironment('live');
    await browser.get('/dashboard/links');
    const refused = await browser.post('/dashboard/links', { name: 'Tea', pricing: 'fixed', amount: '60' });
    expect(refused.status).toBe(403);
    expect(pageText(refused.body)).toContain('Your live account is not approved yet');
    expect(await linksOf(merchantId)).toEqual([]);
    await approveSignedUp(t.ctx, fields.email);
    await browser.get('/dashboard/links');
    expect((await browser.post('/dashboard/links', { name: 'Tea', pricing: 'fixed', amount: '60' })).status).toBe(303);
    const [row] = await t.db.query('SELECT environment FROM payment_links WHERE merchant_id = $1', [merchantId]);
    expect(row).toEqual({ environment: 'live' });
  });
});
