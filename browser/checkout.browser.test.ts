// The hosted payment page in headless Chromium, used as a payer uses it: open payment_url, type
// into the labelled fields, press the buttons, land back on the merchant's site. Every test also
// checks that the page logged no console error (CSP violations included), opened no dialog and
// asked no other host for anything, and that the ledger holds afterwards.
import { describe, expect, it } from 'vitest';
import { browserSuite, enterOtp, enterWallet, landOnMerchant, SANDBOX, TEA_FOR_THE_OFFICE } from './harness.js';

const MERCHANT_NAME = 'Himalayan Tea House';

const suite = browserSuite({ merchantName: MERCHANT_NAME });
const payer = (options: { javaScriptEnabled?: boolean } = {}) => suite.person(options);

let orders = 0;
function order(overrides: Record<string, unknown> = {}) {
  orders += 1;
  return {
    return_url: `${suite.shop.origin}/orders/return?cart=7&lang=ne`,
    website_url: `${suite.shop.origin}/`,
    amount: 123456,
    purchase_order_id: `order-${Date.now()}-${orders}`,
    purchase_order_name: 'Ilam first flush, 2 tins',
    ...overrides,
  };
}

describe('paying on the hosted page', () => {
  it('pays with a sandbox wallet and returns to return_url with every callback parameter', async () => {
    const body = order();
    const initiated = await suite.service.initiate(body);
    // The payment in payment_url's query, as the real gateway gives it; every step stays at that shape.
    expect(initiated.payment_url).toBe(`${suite.service.origin}/pay/?pidx=${initiated.pidx}`);
    const { page } = await payer();
    await page.goto(initiated.payment_url);
    await enterWallet(page, SANDBOX.mobile, SANDBOX.mpin);
    await page.getByText('We sent a 6-digit code to 98XXXXXXX1.').waitFor();
    const otpStep = new URL(page.url());
    expect([otpStep.pathname, otpStep.searchParams.get('pidx'), otpStep.searchParams.get('attempt')]).toEqual(['/pay/', initiated.pidx, expect.stringMatching(/^[\w-]+$/)]);
    await enterOtp(page, SANDBOX.otp);
    const params = await landOnMerchant(page, suite.shop);

    expect(new URL(page.url()).pathname).toBe('/orders/return');
    expect(params).toMatchObject({
      cart: '7',
      lang: 'ne',
      pidx: initiated.pidx,
      status: 'Completed',
      amount: '123456',
      total_amount: '123456',
      mobile: '98XXXXXXX1',
      purchase_order_id: body.purchase_order_id,
      purchase_order_name: body.purchase_order_name,
    });
    expect(params.transaction_id).toMatch(/^[\w-]{10,}$/);
    expect(params.tidx).toBe(params.transaction_id);
    expect(params.txnId).toBe(params.transaction_id);
    // The merchant's server saw the same redirect the address bar shows.
    expect(suite.shop.visits.at(-1)).toEqual({ path: '/orders/return', query: params });

    const lookup = await suite.service.lookup(initiated.pidx);
    expect(lookup.status).toBe(200);
    expect(lookup.body).toMatchObject({ pidx: initiated.pidx, status: 'Completed', transaction_id: params.transaction_id, total_amount: 123456, refunded: false });
  });

  it('cancels on the first step: User canceled in the callback, 400 from lookup', async () => {
    const body = order();
    const initiated = await suite.service.initiate(body);
    const { page } = await payer();
    await page.goto(initiated.payment_url);
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    const params = await landOnMerchant(page, suite.shop);

    expect(params).toMatchObject({
      cart: '7',
      lang: 'ne',
      pidx: initiated.pidx,
      status: 'User canceled',
      transaction_id: '',
      tidx: '',
      txnId: '',
      mobile: '',
      amount: '123456',
      total_amount: '123456',
      purchase_order_id: body.purchase_order_id,
      purchase_order_name: body.purchase_order_name,
    });
    const lookup = await suite.service.lookup(initiated.pidx);
    expect(lookup.status).toBe(400);
    expect(lookup.body).toMatchObject({ status: 'User canceled', transaction_id: null });
  });

  it('shows a wrong MPIN with the attempts left, then pays with the right one', async () => {
    const initiated = await suite.service.initiate(order());
    const { page } = await payer();
    await page.goto(initiated.payment_url);
    await enterWallet(page, SANDBOX.mobile, '0000');

    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toBe('Wrong MPIN. 4 attempts left.');
    // The mobile number is kept, the MPIN is not.
    expect(await page.getByLabel('Mobile number').inputValue()).toBe(SANDBOX.mobile);
    expect(await page.getByLabel('MPIN').inputValue()).toBe('');

    await page.getByLabel('MPIN').fill(SANDBOX.mpin);
    await page.getByRole('button', { name: 'Pay', exact: true }).click();
    await enterOtp(page, SANDBOX.otp);
    const params = await landOnMerchant(page, suite.shop);
    expect(params.status).toBe('Completed');
    const lookup = await suite.service.lookup(initiated.pidx);
    expect(lookup.status).toBe(200);
    expect(lookup.body).toMatchObject({ status: 'Completed', transaction_id: params.transaction_id });
  });

  it('leaves the payment Pending with the sandbox pending wallet', async () => {
    const initiated = await suite.service.initiate(order());
    const { page } = await payer();
    await page.goto(initiated.payment_url);
    await enterWallet(page, SANDBOX.pendingMobile, SANDBOX.mpin);
    await enterOtp(page, SANDBOX.otp);
    const params = await landOnMerchant(page, suite.shop);

    expect(params).toMatchObject({ pidx: initiated.pidx, status: 'Pending', mobile: '98XXXXXXX7', cart: '7' });
    const lookup = await suite.service.lookup(initiated.pidx);
    expect(lookup.status).toBe(200);
    expect(lookup.body).toMatchObject({ status: 'Pending', transaction_id: null });
  });

  it('shows the expiry page, with a way back to the website, once the link has expired', async () => {
    const initiated = await suite.service.initiate(order());
    const { page } = await payer();
    await page.goto(initiated.payment_url);
    await page.getByLabel('Mobile number').fill(SANDBOX.mobile);
    await page.getByLabel('MPIN').fill(SANDBOX.mpin);

    // The payer waits past the link's lifetime, then presses Pay.
    suite.service.t.clock.advance(3601);
    await page.getByRole('button', { name: 'Pay', exact: true }).click();
    await page.getByRole('heading', { name: 'Payment expired' }).waitFor();

    const response = await page.goto(initiated.payment_url);
    expect(response?.status()).toBe(410);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Payment expired');
    expect(await page.getByLabel('MPIN').count()).toBe(0);
    const back = page.getByRole('link', { name: `Back to ${MERCHANT_NAME}` });
    expect(await back.getAttribute('href')).toBe(`${suite.shop.origin}/`);
    await back.click();
    await page.waitForURL(`${suite.shop.origin}/`);
    await page.getByRole('heading', { name: 'Order received' }).waitFor();

    const lookup = await suite.service.lookup(initiated.pidx);
    expect(lookup.status).toBe(400);
    expect(lookup.body).toMatchObject({ status: 'Expired' });
  });

  it('refuses a second link of an order that is already paid', async () => {
    const first = order();
    const a = await suite.service.initiate(first);
    const b = await suite.service.initiate(order({ purchase_order_id: first.purchase_order_id }));
    const { page, newTab } = await payer();

    // Link B is open in a second tab while the order is paid through link A.
    const tabB = await newTab();
    await tabB.goto(b.payment_url);
    await page.goto(a.payment_url);
    await enterWallet(page, SANDBOX.mobile, SANDBOX.mpin);
    await enterOtp(page, SANDBOX.otp);
    expect((await landOnMerchant(page, suite.shop)).status).toBe('Completed');

    await enterWallet(tabB, '9800000002', SANDBOX.mpin);
    await tabB.getByRole('heading', { name: 'Order already paid' }).waitFor();
    expect(await tabB.locator('main').textContent()).toContain('already been paid');

    const reopened = await tabB.goto(b.payment_url);
    expect(reopened?.status()).toBe(409);
    expect(await tabB.locator('main').textContent()).toContain('already been paid');
    expect(await tabB.getByLabel('Mobile number').count()).toBe(0);
    expect(await tabB.getByRole('link', { name: `Back to ${MERCHANT_NAME}` }).getAttribute('href')).toBe(`${suite.shop.origin}/`);

    expect((await suite.service.lookup(a.pidx)).body).toMatchObject({ status: 'Completed' });
    expect((await suite.service.lookup(b.pidx)).body).toMatchObject({ status: 'Initiated', transaction_id: null });
  });

  it('works with JavaScript disabled', async () => {
    const initiated = await suite.service.initiate(order());
    const { page } = await payer({ javaScriptEnabled: false });
    await page.goto(initiated.payment_url);
    // Server-rendered: the amount and the time left are there without any script.
    expect(await page.getByText('Rs. 1,234.56').first().isVisible()).toBe(true);
    expect(await page.locator('.time-left').textContent()).toMatch(/^\d+ h \d+ min$|^\d+:\d\d$/);
    await enterWallet(page, SANDBOX.mobile, '9999');
    expect(await page.getByRole('alert').textContent()).toBe('Wrong MPIN. 4 attempts left.');
    await page.getByLabel('MPIN').fill(SANDBOX.mpin);
    await page.getByRole('button', { name: 'Pay', exact: true }).click();
    expect(new URL(page.url()).searchParams.get('pidx')).toBe(initiated.pidx);
    await enterOtp(page, SANDBOX.otp);
    const params = await landOnMerchant(page, suite.shop);
    expect(params).toMatchObject({ pidx: initiated.pidx, status: 'Completed', txnId: params.transaction_id });
    expect((await suite.service.lookup(initiated.pidx)).body).toMatchObject({ status: 'Completed', transaction_id: params.transaction_id });
  });

  it('pays at the address given out before, /pay/<pidx>, with and without JavaScript', async () => {
    for (const javaScriptEnabled of [true, false]) {
      const initiated = await suite.service.initiate(order());
      const { page } = await payer({ javaScriptEnabled });
      const response = await page.goto(`${suite.service.origin}/pay/${initiated.pidx}`);
      expect(response?.status()).toBe(200);
      await enterWallet(page, SANDBOX.mobile, SANDBOX.mpin);
      await enterOtp(page, SANDBOX.otp);
      const params = await landOnMerchant(page, suite.shop);
      expect(params).toMatchObject({ pidx: initiated.pidx, status: 'Completed', txnId: params.transaction_id });
      expect((await suite.service.lookup(initiated.pidx)).body).toMatchObject({ status: 'Completed', transaction_id: params.transaction_id });
    }
  });
});

describe('what the page shows', () => {
  it('shows the merchant, the order, the amount, the breakdown, the products, the time left and the TEST MODE banner', async () => {
    const body = order(TEA_FOR_THE_OFFICE);
    const initiated = await suite.service.initiate(body);
    const { page } = await payer();
    const response = await page.goto(initiated.payment_url);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toContain("default-src 'none'");

    expect(await page.title()).toContain(MERCHANT_NAME);
    expect(await page.getByRole('status').textContent()).toContain('TEST MODE');
    expect(await page.getByRole('status').isVisible()).toBe(true);
    const summary = page.getByRole('region', { name: 'Order summary' });
    expect(await summary.locator('.merchant').textContent()).toBe(`Pay ${MERCHANT_NAME}`);
    expect(await summary.getByRole('heading', { level: 1 }).textContent()).toBe('Tea for the office');
    expect(await summary.getByTestId('amount').textContent()).toBe('Rs. 1,234.56');

    const rows = async (name: string) =>
      (await page.getByRole('table', { name }).getByRole('row').allInnerTexts()).map((row) => row.replace(/\s+/g, ' ').trim());
    expect(await rows('Breakdown')).toEqual(['Tea Rs. 1,000.00', 'Delivery Rs. 234.56', 'Total Rs. 1,234.56']);
    expect(await rows('Products')).toEqual(['Ilam first flush × 2 Rs. 800.00', 'Masala chai × 1 Rs. 200.00']);

    expect(await summary.textContent()).toContain(`Order ${body.purchase_order_id}`);
    expect(await page.locator('.timer').textContent()).toMatch(/^Time left to pay (\d+ h \d+ min|\d+:\d\d)$/);
    for (const label of ['Mobile number', 'MPIN']) expect(await page.getByLabel(label).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Pay', exact: true }).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Cancel', exact: true }).isVisible()).toBe(true);
  });

  it('shows an order name with markup as text, running nothing', async () => {
    const name = '<script>alert(1)</script><img src=x onerror=alert(2)>';
    const initiated = await suite.service.initiate(order({ purchase_order_name: name }));
    const { page, dialogs } = await payer();
    await page.goto(initiated.payment_url);

    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(name);
    expect(await page.locator('main script, main img').count()).toBe(0);
    // Pay through, so the name also travels in the callback untouched.
    await enterWallet(page, SANDBOX.mobile, SANDBOX.mpin);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(name);
    await enterOtp(page, SANDBOX.otp);
    const params = await landOnMerchant(page, suite.shop);
    expect(params.purchase_order_name).toBe(name);
    expect(dialogs).toEqual([]);
  });

  it('shows a not-found page for an unknown link, a missing or a repeated pidx', async () => {
    const { page } = await payer();
    for (const path of ['/pay/unknownpidx', '/pay/?pidx=unknownpidx', '/pay/', '/pay/?pidx=', '/pay/?pidx=a&pidx=b']) {
      const response = await page.goto(`${suite.service.origin}${path}`);
      expect([path, response?.status()]).toEqual([path, 404]);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Payment not found');
      expect(await page.getByLabel('Mobile number').count()).toBe(0);
    }
  });
});
