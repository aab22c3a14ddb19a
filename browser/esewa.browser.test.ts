// eSewa's ePay door in headless Chromium, as an eSewa integration uses it (issue 25): the merchant's
// checkout page posts eSewa's signed form from the browser, the payer pays on the hosted page with
// eSewa's sandbox payer, and the merchant's success page checks `data`'s signature and asks the
// status check (COMPLETE); a cancel ends on the failure page (CANCELED); a refund through the v2
// API shows there as FULL_REFUND. The shop's code below, and the signing it uses (test/esewa-client.ts),
// are written from eSewa's documentation alone.
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { esewaForm, sign } from '../test/esewa-client.js';
import { newMerchant } from '../test/test-app.js';
import { browserSuite, freePort } from './harness.js';

const suite = browserSuite({ merchantName: 'Kathmandu Books', shop: false });

const ESEWA = { mobile: '9806800001', mpin: '1122', otp: '123456' } as const;

interface Shop {
  origin: string;
  close(): Promise<void>;
}

let shop: Shop;
let pair: { product_code: string; secret_key: string };
let testKey: string;

const escape = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
const page = (title: string, body: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title></head><body><h1>${escape(title)}</h1>${body}</body></html>`;

/** The merchant's website: a checkout page with eSewa's form, and the success and failure pages. */
async function startShop(service: string): Promise<Shop> {
  const statusOf = async (fields: Record<string, string>) => {
    const query = new URLSearchParams({ product_code: fields.product_code, total_amount: fields.total_amount, transaction_uuid: fields.transaction_uuid });
    return (await (await fetch(`${service}/api/epay/transaction/status/?${query}`)).json()) as { status: string; ref_id: string | null };
  };
  /** What the success and failure pages do with `data`: decode it, check its signature, then ask the status check. */
  const returned = async (data: string | null, title: string) => {
    const fields = JSON.parse(Buffer.from(data ?? '', 'base64').toString('utf8')) as Record<string, string>;
    const verified = sign(pair.secret_key, fields, fields.signed_field_names) === fields.signature;
    const status = await statusOf(fields);
    return page(title, `<p id="signature">${verified ? 'Signature verified' : 'Signature INVALID'}</p><p id="data-status">${escape(fields.status)}</p><p id="status">${escape(status.status)}</p><p id="ref">${escape(status.ref_id ?? '')}</p><p id="uuid">${escape(fields.transaction_uuid)}</p>`);
  };
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const server: Server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', origin);
    let html: string;
    if (url.pathname === '/favicon.ico') return void response.writeHead(204).end();
    if (url.pathname === '/checkout') {
      // A book of Rs. 100 and Rs. 10 tax, signed over total_amount, transaction_uuid and product_code.
      const fields = esewaForm(pair, { transaction_uuid: `book-${randomUUID()}`, success_url: `${origin}/esewa/success`, failure_url: `${origin}/esewa/failure` });
      const inputs = Object.entries(fields).map(([name, value]) => `<input type="hidden" name="${name}" value="${escape(value)}">`).join('');
      html = page('Checkout', `<p>A book, Rs. 110</p><form action="${service}/api/epay/main/v2/form" method="POST">${inputs}<button type="submit">Pay with eSewa</button></form>`);
    } else if (url.pathname === '/esewa/success') html = await returned(url.searchParams.get('data'), 'Thank you');
    else if (url.pathname === '/esewa/failure') html = await returned(url.searchParams.get('data'), 'Payment not made');
    else if (url.pathname === '/orders') {
      const status = await statusOf({ product_code: pair.product_code, total_amount: '110', transaction_uuid: url.searchParams.get('uuid') ?? '' });
      html = page('Your order', `<p id="status">${escape(status.status)}</p>`);
    } else return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { origin, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

beforeAll(async () => {
  const merchant = await newMerchant(suite.service.t.ctx, { name: 'Kathmandu Books' });
  pair = merchant.esewa.test;
  testKey = merchant.test_secret_key;
  shop = await startShop(suite.service.origin);
});
afterAll(() => shop?.close());

const person = () => suite.person({}, [suite.service.origin, shop.origin]);

describe('eSewa’s ePay from a merchant’s page', () => {
  it('posts the form, is paid on the hosted page by eSewa’s sandbox payer, and the success page verifies data: COMPLETE; refunded through the v2 API: FULL_REFUND', async () => {
    const { page: tab } = await person();
    await tab.goto(`${shop.origin}/checkout`);
    await tab.getByRole('button', { name: 'Pay with eSewa' }).click();
    await tab.waitForURL((url) => url.origin === suite.service.origin && url.pathname === '/pay/');
    await tab.getByText('Rs. 110.00').first().waitFor();
    await tab.getByLabel('Mobile number').fill(ESEWA.mobile);
    await tab.getByLabel('MPIN').fill(ESEWA.mpin);
    await tab.getByRole('button', { name: 'Pay', exact: true }).click();
    await tab.getByLabel('OTP').fill(ESEWA.otp);
    await tab.getByRole('button', { name: 'Confirm', exact: true }).click();
    await tab.waitForURL((url) => url.origin === shop.origin && url.pathname === '/esewa/success');
    await tab.getByRole('heading', { name: 'Thank you' }).waitFor();
    expect(await tab.locator('#signature').textContent()).toBe('Signature verified');
    expect([await tab.locator('#data-status').textContent(), await tab.locator('#status').textContent()]).toEqual(['COMPLETE', 'COMPLETE']);
    const transactionCode = (await tab.locator('#ref').textContent())!;
    const uuid = (await tab.locator('#uuid').textContent())!;
    expect(transactionCode).toMatch(/^\w{10,}$/);

    // The merchant refunds through the v2 API, as for any payment.
    const refunded = await fetch(`${suite.service.origin}/api/merchant-transaction/${transactionCode}/refund/`, { method: 'POST', headers: { authorization: `Key ${testKey}` } });
    expect(refunded.status).toBe(200);
    await tab.goto(`${shop.origin}/orders?uuid=${encodeURIComponent(uuid)}`);
    expect(await tab.locator('#status').textContent()).toBe('FULL_REFUND');
  });

  it('a cancel on the hosted page ends on the failure page, its data verified: CANCELED', async () => {
    const { page: tab } = await person();
    await tab.goto(`${shop.origin}/checkout`);
    await tab.getByRole('button', { name: 'Pay with eSewa' }).click();
    await tab.waitForURL((url) => url.origin === suite.service.origin);
    await tab.getByRole('button', { name: 'Cancel', exact: true }).click();
    await tab.waitForURL((url) => url.origin === shop.origin && url.pathname === '/esewa/failure');
    await tab.getByRole('heading', { name: 'Payment not made' }).waitFor();
    expect(await tab.locator('#signature').textContent()).toBe('Signature verified');
    expect([await tab.locator('#data-status').textContent(), await tab.locator('#status').textContent(), await tab.locator('#ref').textContent()]).toEqual(['CANCELED', 'CANCELED', '']);
  });
});
