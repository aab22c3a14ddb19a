// A payment link's public pages over HTTP, as a payer's browser without
// JavaScript drives them: the page of a fixed or a payer's amount, what it refuses (with nothing
// stored), a form without its token, inactive, expired and used-up links (410), a live link of a
// merchant that may not take live payments (403), made-up codes (404, then 429 for that address
// only), the receipt page (the store's outcome, never the query's), and the QR codes (decoded).
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { codeOf, linkApi, linkPayer } from '../../test/link-client.js';
import { merchantIn } from '../../test/merchant-approval.js';
import { decodeQrPng, decodeQrSvg } from '../../test/qr-decode.js';
import { newMerchant, startTestApp } from '../../test/test-app.js';
import { pageText } from '../../test/dashboard-client.js';
import { createPaymentLink } from '../payment-links/create-payment-link.js';
import { qrCodePng } from '../payment-links/qr-code.js';
import { paymentLinkCodes } from '../people/link-guesses.js';

const t = await startTestApp();
afterAll(() => t.close());
const PUBLIC_URL = t.ctx.config.publicUrl;

async function linkOf(body: Record<string, unknown>, name = 'Momo Corner') {
  const merchant = await newMerchant(t.ctx, { name });
  const { status, body: link } = await linkApi(t.app, merchant.test_secret_key).create(body);
  expect(status).toBe(201);
  return { merchant, link, code: codeOf(link.url), links: linkApi(t.app, merchant.test_secret_key) };
}

const paymentsOf = async (idx: string) => (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM payments WHERE payment_link = $1', [idx]))[0].n;

/**
 * An address of its own (IPv6 documentation range, drawn at random), so that one test's wrong codes
 * lock no other's, nor a later run's on a shared PostgreSQL store (the counts are kept a day).
 */
const ownAddress = () => `2001:db8::${randomBytes(2).toString('hex')}:${randomBytes(2).toString('hex')}`;

describe('the link’s page', () => {
  it('shows the business, what is paid for and the fixed amount, in the portal’s look, with TEST MODE and the form’s token', async () => {
    const { code } = await linkOf({ name: 'Momo platter', description: 'Ten steamed momos.', amount: 4_500_000 });
    const page = await linkPayer(t.app).open(code);
    expect(page.status).toBe(200);
    const text = pageText(page.body);
    expect(text).toContain('Pay Momo Corner');
    expect(text).toContain('Momo platter');
    expect(text).toContain('Ten steamed momos.');
    expect(text).toContain('Rs. 45,000.00');
    expect(text).toContain('TEST MODE');
    expect(page.body).toContain(`action="/l/${code}"`);
    expect(page.body).toMatch(/name="csrf_token" value="[\w-]+\.[\w-]+"/);
    expect(page.body).not.toContain('name="amount"');
    expect(page.body).toMatch(/\/assets\/portal\.[0-9a-f]{10}\.css/);
  });

  it('asks a payer’s amount between the link’s least and most, and the details it asks; refuses what does not fit, each field said, nothing stored', async () => {
    const { link, code } = await linkOf({ name: 'Tuition', min_amount: 100_000, max_amount: 10_000_000, ask: ['name', 'phone', 'email'] });
    const payer = linkPayer(t.app);
    const page = await payer.open(code);
    expect(pageText(page.body)).toContain('Any amount from Rs. 1,000.00 to Rs. 1,00,000.00.');
    for (const field of ['amount', 'name', 'phone', 'email']) expect(page.body).toContain(`name="${field}"`);

    const cases: [Record<string, string>, string[]][] = [
      [{}, ['Fill this in.']],
      [{ amount: 'ten', name: 'Sita', phone: '9812345678', email: 'sita@example.com' }, ['Enter the amount in rupees, for example 1500 or 1,500.50.']],
      [{ amount: '999.99', name: 'Sita', phone: '9812345678', email: 'sita@example.com' }, ['The least you can pay here is Rs. 1,000.00.']],
      [{ amount: '1,00,000.01', name: 'Sita', phone: '9812345678', email: 'sita@example.com' }, ['The most you can pay here is Rs. 1,00,000.00.']],
      [{ amount: '1500', name: 'Sita', phone: 'call me', email: 'sita' }, ['Enter a phone number, for example 98XXXXXXXX.', 'Enter an e-mail address, for example name@example.com.']],
      [{ amount: '1500', name: 'x'.repeat(101), phone: '9812345678', email: 'sita@example.com' }, ['This is too long.']],
    ];
    for (const [fields, messages] of cases) {
      const { answer } = await payer.start(code, fields);
      expect(answer.status, JSON.stringify(fields)).toBe(400);
      expect(answer.body).toContain('role="alert"');
      for (const message of messages) expect(pageText(answer.body)).toContain(message);
      expect(answer.body).toContain('aria-invalid="true"');
    }
    // What the payer typed comes back, escaped.
    const { answer } = await payer.start(code, { amount: '1500', name: '<script>alert(1)</script>', phone: 'x', email: 'sita@example.com' });
    expect(answer.body).toContain('value="&lt;script&gt;alert(1)&lt;/script&gt;"');
    expect(answer.body).not.toContain('<script>alert(1)');
    expect(await paymentsOf(link.idx)).toBe(0);

    // Devanagari digits and lakh grouping are read as a Nepali payer types them.
    const started = await payer.start(code, { amount: '१,५००.५०', name: 'सीता शर्मा', phone: '९८१२३४५६७८', email: 'sita@example.com' });
    expect(started.answer.status).toBe(303);
    const [payment] = await t.db.query<{ amount: number; customer_info: unknown }>('SELECT amount, customer_info FROM payments WHERE pidx = $1', [started.pidx]);
    expect(payment).toEqual({ amount: 150_050, customer_info: { name: 'सीता शर्मा', phone: '9812345678', email: 'sita@example.com' } });
  });

  it('refuses a form without this link’s token (403) and starts nothing', async () => {
    const { link, code } = await linkOf({ name: 'Tea', amount: 1000 });
    const other = await linkOf({ name: 'Other', amount: 1000 });
    const payer = linkPayer(t.app);
    await payer.open(other.code);
    // The token of another link's form, with this browser's cookie.
    expect((await payer.browser.post(`/l/${code}`, {})).status).toBe(403);
    const bare = await t.app.inject({ method: 'POST', url: `/l/${code}`, payload: 'amount=10', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(bare.statusCode).toBe(403);
    expect(await paymentsOf(link.idx)).toBe(0);
  });

  it('answers 410 with a polite page for an inactive, an expired and a used-up link, on GET and POST', async () => {
    const inactive = await linkOf({ name: 'Tea', amount: 1000 });
    await inactive.links.deactivate(inactive.link.idx);
    const expiring = await linkOf({ name: 'Tea', amount: 1000, expires_on: new Date(t.clock.now().getTime() + 60_000).toISOString() });
    const usedUp = await linkOf({ name: 'Tea', amount: 1000, max_payments: 1 });
    const first = linkPayer(t.app);
    const { pidx } = await first.start(usedUp.code);
    await first.pay(pidx!);

    const payer = linkPayer(t.app);
    await payer.open(expiring.code);
    t.clock.advance(61);
    for (const [code, says] of [
      [inactive.code, 'Momo Corner has turned this payment link off.'],
      [expiring.code, 'This payment link of Momo Corner has expired.'],
      [usedUp.code, 'This payment link of Momo Corner has taken all the payments it was made for.'],
    ]) {
      const page = await payer.open(code);
      expect(page.status).toBe(410);
      expect(pageText(page.body)).toContain(`${says}`);
      expect(pageText(page.body)).toContain('You have not been charged.');
      expect(page.body).not.toContain('<form');
    }
    // The expired link's form, read before it expired, starts nothing.
    const posted = await payer.browser.post(`/l/${expiring.code}`, {});
    expect(posted.status).toBe(410);
    expect(await paymentsOf(expiring.link.idx)).toBe(0);
  });

  it('answers 403 for a live link of a merchant that may not take live payments', async () => {
    const suspended = await merchantIn(t.ctx, 'suspended');
    const link = await createPaymentLink(t.ctx, { owner: { merchantId: suspended.merchant.id, environment: 'live' }, input: { name: 'Tea', amount: 1000 }, createdBy: 'api' });
    const page = await linkPayer(t.app).open(link.code);
    expect(page.status).toBe(403);
    expect(pageText(page.body)).toContain(`${suspended.merchant.name} cannot take payments at the moment.`);
    expect(page.body).not.toContain('TEST MODE');
  });
});

describe('made-up codes', () => {
  it('are 404; after the limit the address is locked (429, Retry-After), right codes included, and other addresses are not', async () => {
    const { code } = await linkOf({ name: 'Tea', amount: 1000 });
    const guesser = ownAddress();
    const get = (url: string, remoteAddress: string) => t.app.inject({ method: 'GET', url, remoteAddress });
    const guesses = ['AAAAAAAAA', 'x', '../../etc', `${code}x`, code.toLowerCase() === code ? code.toUpperCase() : code.toLowerCase()];
    for (let i = 0; i < paymentLinkCodes.failuresBeforeLock - 1; i++) {
      const guess = encodeURIComponent(guesses[i % guesses.length]);
      const url = i % 3 === 0 ? `/l/${guess}/qr.png` : `/l/${guess}`;
      const answer = await get(url, guesser);
      expect(answer.statusCode, url).toBe(404);
    }
    expect((await get(`/l/${code}`, guesser)).statusCode).toBe(200);
    const last = await get('/l/BBBBBBBBB', guesser);
    expect(last.statusCode).toBe(429);
    expect(Number(last.headers['retry-after'])).toBeGreaterThan(0);
    expect(pageText(last.body)).toContain('Too many wrong links');
    expect((await get(`/l/${code}`, guesser)).statusCode).toBe(429);
    expect((await get(`/l/${code}`, ownAddress())).statusCode).toBe(200);
    t.clock.advance(31);
    expect((await get(`/l/${code}`, guesser)).statusCode).toBe(200);
    // docs/payment-links.md says it as it is: the 30th wrong code is the one refused.
    const doc = readFileSync(new URL('../../docs/payment-links.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
    expect(doc).toContain(`${paymentLinkCodes.failuresBeforeLock - 1} wrong codes in a day are answered \`404\`; **the ${paymentLinkCodes.failuresBeforeLock}th** is answered \`429\``);
  });
});

describe('the receipt page', () => {
  it('shows the store’s outcome, whatever the query says', async () => {
    const { code, link } = await linkOf({ name: 'Tea', amount: 12_345 });
    const payer = linkPayer(t.app);
    const { pidx } = await payer.start(code);
    const forged = await payer.browser.get(`/l/${code}/paid?pidx=${pidx}&status=Completed&transaction_id=forged`);
    expect(forged.status).toBe(200);
    expect(pageText(forged.body)).toContain('Payment not finished');
    expect(forged.body).not.toContain('forged');
    expect(forged.body).toContain(`href="/pay/?pidx=${pidx}"`);

    const { receipt } = await payer.pay(pidx!);
    const text = pageText(receipt!.body);
    expect(text).toContain('Payment complete');
    expect(text).toContain('You paid Rs. 123.45 to Momo Corner.');
    const [{ transaction_id }] = await t.db.query<{ transaction_id: string }>('SELECT transaction_id FROM payments WHERE pidx = $1', [pidx]);
    expect(text).toContain(transaction_id);
    // Written whole where a line may end: the amount with its sign, the time with its am or pm.
    expect(receipt!.body).toContain('<dd data-testid="amount">Rs.\u00a0123.45</dd>');
    expect(receipt!.body).toMatch(/, \d{1,2}:\d{2}\u00a0[ap]m<\/dd>/);

    // Canceled on the hosted page: back here, not charged, and a way to pay again.
    const canceler = linkPayer(t.app);
    const started = await canceler.start(code);
    await canceler.browser.open(started.pidx!);
    const canceled = await canceler.browser.cancel(started.pidx!);
    const back = await canceler.browser.get(new URL(canceled.location!).pathname + new URL(canceled.location!).search);
    expect(pageText(back.body)).toContain('You canceled the payment. You have not been charged.');
    // The payer's own choice: told as news, not as an error.
    expect(back.body).toContain('<section class="notice info" data-status="User canceled">');
    expect(back.body).toContain(`href="/l/${code}"`);

    // A payment of another link, or none, is not shown here.
    const other = await linkOf({ name: 'Other', amount: 1000 });
    expect((await payer.browser.get(`/l/${other.code}/paid?pidx=${pidx}`)).status).toBe(404);
    expect((await payer.browser.get(`/l/${code}/paid`)).status).toBe(404);
    expect((await payer.browser.get(`/l/${code}/paid?pidx=${'x'.repeat(300)}`)).status).toBe(404);
    expect(link.idx).toBeTruthy();
  });
});

describe('the QR codes', () => {
  it('hold the link’s address: a large PNG, and an SVG with the business’s name under it (escaped)', async () => {
    const { code, link } = await linkOf({ name: 'Tea', amount: 1000 }, 'Tea & <Momo> "House"');
    const png = await t.app.inject({ method: 'GET', url: `/l/${code}/qr.png` });
    expect(png.statusCode).toBe(200);
    expect(png.headers['content-type']).toBe('image/png');
    expect(decodeQrPng(png.rawPayload)).toBe(`${PUBLIC_URL}/l/${code}`);
    expect(png.rawPayload.readUInt32BE(16)).toBe(1200);
    // Grayscale (IHDR's colour type 0), drawn once: the next request gets the same bytes, kept.
    expect(png.rawPayload[25]).toBe(0);
    const url = `${PUBLIC_URL}/l/${code}`;
    expect(await qrCodePng(url)).toBe(await qrCodePng(url));
    expect(await qrCodePng(url)).toEqual(png.rawPayload);

    const svg = await t.app.inject({ method: 'GET', url: `/l/${code}/qr.svg` });
    expect(svg.statusCode).toBe(200);
    expect(svg.headers['content-type']).toBe('image/svg+xml; charset=utf-8');
    expect(svg.headers['content-security-policy']).toContain("default-src 'none'");
    expect(decodeQrSvg(svg.body)).toBe(link.url);
    expect([...svg.body.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]).join(' ')).toBe('Tea &amp; &lt;Momo&gt; &quot;House&quot;');
    expect(svg.body).not.toContain('<Momo>');

    expect((await t.app.inject({ method: 'GET', url: '/l/NOSUCHCODE/qr.svg', remoteAddress: ownAddress() })).statusCode).toBe(404);
  });

  it('fit a long business name under the code: two lines, a line near the edges given its width, nothing cut', async () => {
    const { code } = await linkOf({ name: 'Tea', amount: 1000 }, 'Annapurna Tea House & Momo Corner');
    const svg = (await t.app.inject({ method: 'GET', url: `/l/${code}/qr.svg` })).body;
    const width = Number(/viewBox="0 0 ([\d.]+)/.exec(svg)![1]);
    const lines = [...svg.matchAll(/<text x="([\d.]+)"[^>]*?(?: textLength="([\d.]+)" lengthAdjust="spacingAndGlyphs")?>([^<]*)<\/text>/g)].map(([, x, length, text]) => ({ x: Number(x), length: length && Number(length), text }));
    expect(lines.map((l) => l.text)).toEqual(['Annapurna Tea House', '&amp; Momo Corner']);
    expect(lines[0].length).toBeGreaterThan(0);
    for (const { x, length } of lines) if (length) expect([x - length / 2, x + length / 2].every((edge) => edge >= 0 && edge <= width)).toBe(true);
  });
});
