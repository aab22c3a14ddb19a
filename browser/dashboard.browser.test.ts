// The merchant dashboard in headless Chromium, used as a merchant uses it: sign up, read the keys,
// initiate with the key over HTTP, have a payer pay on the portal, find the payment in the list,
// open it, refund part of it and then the rest, export the CSV and read the file. Then pictures of
// every dashboard page on a phone and on a desktop, saved to browser/screenshots/ (not committed).
// Every page is watched for console errors (CSP violations among them), dialogs and requests to
// other hosts.
import { readFileSync } from 'node:fs';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserSuite, DESKTOP, enterOtp, enterWallet, landOnMerchant, SANDBOX, SCREENS, screenshot as snap } from './harness.js';
import { mailedLinkSoon } from '../test/dashboard-client.js';

const MERCHANT = { name: 'Himalayan Tea House', email: `tea-${Date.now()}@example.com`, password: 'a long tea secret' };

const suite = browserSuite({ merchantName: 'Harness merchant (unused)' });
const person = (options: BrowserContextOptions = {}) => suite.person({ acceptDownloads: true, ...options });

/** The shop's server: initiate and look up over HTTP with the merchant's secret key, as an integration does. */
const initiateWith = (key: string, body: Record<string, unknown>) => suite.service.initiate(body, key);
const lookupWith = async (key: string, pidx: string) => (await suite.service.lookup(pidx, key)).body;

let orders = 0;
/** An order as a shop sends it; the breakdown and products only with the default amount they add up to. */
function order(overrides: Record<string, unknown> = {}) {
  orders += 1;
  const detailed = overrides.amount === undefined;
  return {
    return_url: `${suite.shop.origin}/orders/return?cart=7`,
    website_url: `${suite.shop.origin}/`,
    amount: 123456,
    purchase_order_id: `INV-${Date.now()}-${orders}`,
    purchase_order_name: 'Ilam first flush, 2 tins',
    customer_info: { name: 'Sita Sharma', email: 'sita@example.com', phone: '9812345678' },
    ...(detailed
      ? {
          amount_breakdown: [
            { label: 'Tea', amount: 100000 },
            { label: 'Delivery', amount: 23456 },
          ],
          product_details: [{ identity: 'tea-ilam', name: 'Ilam first flush', total_price: 100000, quantity: 2, unit_price: 50000 }],
        }
      : {}),
    ...overrides,
  };
}

/** A payer pays `payment_url` on the hosted page with a sandbox wallet and lands back on the shop. */
async function payOnPortal(paymentUrl: string) {
  const payer = await person();
  await payer.page.goto(paymentUrl);
  await enterWallet(payer.page, SANDBOX.mobile, SANDBOX.mpin);
  await enterOtp(payer.page, SANDBOX.otp);
  return landOnMerchant(payer.page, suite.shop);
}

const envBar = (page: Page) => page.getByRole('complementary', { name: 'Environment' });
const statusOf = (page: Page) => page.getByTestId('status');

async function logIn(page: Page) {
  await page.goto(`${suite.service.origin}/dashboard/login`);
  await page.getByLabel('Email').fill(MERCHANT.email);
  await page.getByLabel('Password').fill(MERCHANT.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL(`${suite.service.origin}/dashboard`);
}

async function refund(page: Page, amount: string) {
  await page.getByLabel('Amount to refund, in rupees (Rs.)').fill(amount);
  await page.getByRole('button', { name: 'Review refund' }).click();
}

let testKey = '';
let paid = { pidx: '', purchaseOrderId: '' };

describe('the merchant dashboard', () => {
  it('sign up, see the keys, get paid, find the payment, refund it in two parts and export the CSV', async () => {
    const { page } = await person({ viewport: DESKTOP });

    // Sign up.
    await page.goto(`${suite.service.origin}/dashboard`);
    await page.waitForURL(`${suite.service.origin}/dashboard/login`);
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.getByLabel('Business name').fill(MERCHANT.name);
    await page.getByLabel('Email').fill(MERCHANT.email);
    await page.getByLabel('Password').fill(MERCHANT.password);
    await page.getByRole('button', { name: 'Create account' }).click();
    // Check your e-mail: its link, then one press.
    await page.getByRole('heading', { level: 1, name: 'Check your e-mail' }).waitFor();
    await page.goto(`${suite.service.origin}${await mailedLinkSoon(MERCHANT.email, 'signup')}`);
    await page.getByRole('button', { name: 'Create account' }).click();

    // The keys, once.
    await page.getByRole('heading', { name: `Welcome, ${MERCHANT.name}` }).waitFor();
    expect(await page.getByText("They can't be shown again").isVisible()).toBe(true);
    testKey = (await page.getByLabel('Test secret key').textContent())!.trim();
    const liveKey = (await page.getByLabel('Live secret key').textContent())!.trim();
    expect(testKey).toMatch(/^test_secret_key_[0-9a-f]{32}$/);
    expect(liveKey).toMatch(/^live_secret_key_[0-9a-f]{32}$/);
    expect(await envBar(page).textContent()).toContain('TEST DATA');

    // The shop initiates with the key over HTTP; the payer pays on the portal.
    const body = order();
    const initiated = await initiateWith(testKey, body);
    const callback = await payOnPortal(initiated.payment_url);
    expect(callback).toMatchObject({ pidx: initiated.pidx, status: 'Completed' });
    paid = { pidx: initiated.pidx, purchaseOrderId: body.purchase_order_id };

    // Home shows the money; the list has the payment.
    await page.getByRole('link', { name: 'Go to your dashboard' }).click();
    await page.waitForURL(`${suite.service.origin}/dashboard`);
    expect(await page.getByTestId('today-volume').textContent()).toContain('Rs. 1,234.56');
    expect(await page.getByTestId('balance').textContent()).toContain('Rs. 1,197.52');
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Transactions' }).click();
    await page.waitForURL(`${suite.service.origin}/dashboard/transactions`);
    await page.getByLabel('Search').fill(initiated.pidx);
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL(/\/dashboard\/transactions\?q=/);
    const row = page.locator(`tr[data-pidx="${initiated.pidx}"]`);
    expect(await row.count()).toBe(1);
    expect(await row.textContent()).toContain('Rs. 1,234.56');

    // Open it: everything known about it.
    await row.getByRole('link', { name: body.purchase_order_id }).click();
    await page.waitForURL(`${suite.service.origin}/dashboard/payments/${initiated.pidx}`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(body.purchase_order_name);
    expect(await statusOf(page).textContent()).toBe('Completed');
    const main = (await page.locator('main').textContent())!;
    for (const text of ['Rs. 37.04', 'Sita Sharma', '98XXXXXXX1', 'Payment initiated', 'Payer started paying', 'Paid', 'Ilam first flush']) {
      expect(main).toContain(text);
    }
    expect(main).not.toContain(SANDBOX.mobile);
    expect(await page.getByTestId('callback-url').textContent()).toContain(`${suite.shop.origin}/orders/return?cart=7&pidx=${initiated.pidx}`);

    // Refund part of it: review, confirm.
    await refund(page, '500.00');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Refund Rs. 500.00 to 98XXXXXXX1?');
    await page.getByRole('button', { name: 'Confirm refund' }).click();
    await page.waitForURL(new RegExp(`/dashboard/payments/${initiated.pidx}\\?refund=`));
    expect(await page.getByRole('status').filter({ hasText: 'Refunded' }).textContent()).toBe('Refunded Rs. 500.00 to 98XXXXXXX1.');
    expect(await statusOf(page).textContent()).toBe('Partially refunded');
    expect(await lookupWith(testKey, initiated.pidx)).toMatchObject({ status: 'Partially refunded', refunded_amount: 50000 });

    // Another payment: the whole refund gives back the fee too, which the merchant's balance then
    // holds itself (in test the sandbox would cover it otherwise: docs/settlements.md).
    const float = order();
    await payOnPortal((await initiateWith(testKey, float)).payment_url);

    // The rest: an empty amount refunds what is left.
    await refund(page, '');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Refund Rs. 734.56 to 98XXXXXXX1?');
    await page.getByRole('button', { name: 'Confirm refund' }).click();
    await page.waitForURL(/\?refund=/);
    expect(await statusOf(page).textContent()).toBe('Refunded');
    expect(await page.getByLabel('Amount to refund, in rupees (Rs.)').count()).toBe(0);
    expect(await lookupWith(testKey, initiated.pidx)).toMatchObject({ status: 'Refunded', refunded_amount: 123456 });

    // Export the list as CSV and read the file.
    await page.getByRole('link', { name: '← Transactions' }).click();
    await page.waitForURL(`${suite.service.origin}/dashboard/transactions`);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^bhuktani-test-transactions-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = readFileSync((await download.path())!, 'utf8');
    const lines = csv.trimEnd().split('\r\n');
    expect(lines[0]).toBe('created_on,transaction_id,type,state,pidx,purchase_order_id,amount_paisa,fee_paisa,amount_rupees,fee_rupees,refunded,payer_name,payer_mobile,payment_link');
    const records = lines.slice(1).map((line) => line.split(','));
    // No payment came through a payment link: its column is empty.
    expect(records.map((r) => [r[2], r[4], r[5], r[6], r[12], r[13]])).toEqual([
      ['Refund', initiated.pidx, body.purchase_order_id, '73456', '98XXXXXXX1', ''],
      ['Wallet payment', expect.any(String), float.purchase_order_id, String(float.amount), '98XXXXXXX1', ''],
      ['Refund', initiated.pidx, body.purchase_order_id, '50000', '98XXXXXXX1', ''],
      ['Wallet payment', initiated.pidx, body.purchase_order_id, '123456', '98XXXXXXX1', ''],
    ]);
    expect(records[3][8]).toBe('1234.56');
    expect(records[3][10]).toBe('true');

    // The switch is always visible, and live data is separate.
    await envBar(page).getByRole('button', { name: 'Switch to live data' }).click();
    await page.waitForURL(`${suite.service.origin}/dashboard/transactions`);
    expect(await envBar(page).textContent()).toContain('LIVE DATA');
    expect(await page.getByText('No transactions found.').isVisible()).toBe(true);
    await envBar(page).getByRole('button', { name: 'Switch to test data' }).click();
    await page.waitForURL(`${suite.service.origin}/dashboard/transactions`);
    expect(await envBar(page).textContent()).toContain('TEST DATA');
  });

  it('works without JavaScript: log in, refund with confirmation, rotate a key', async () => {
    const { page } = await person({ viewport: DESKTOP, javaScriptEnabled: false });
    await logIn(page);
    const body = order({ amount: 5000 });
    const initiated = await initiateWith(testKey, body);
    await payOnPortal(initiated.payment_url);
    await page.goto(`${suite.service.origin}/dashboard/payments/${initiated.pidx}`);
    await refund(page, '12.5');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Refund Rs. 12.50 to 98XXXXXXX1?');
    await page.getByRole('button', { name: 'Confirm refund' }).click();
    await page.waitForURL(/\?refund=/);
    expect(await statusOf(page).textContent()).toBe('Partially refunded');

    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByLabel('Key', { exact: true }).selectOption('live');
    await page.getByLabel('Revoke the old key').selectOption({ label: 'After 24 hours' });
    await page.getByRole('button', { name: 'Review rotation' }).click();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Rotate the live secret key?');
    await page.getByRole('button', { name: /^Rotate key/ }).click();
    const newKey = (await page.getByLabel('Live secret key').textContent())!.trim();
    expect(newKey).toMatch(/^live_secret_key_[0-9a-f]{32}$/);
    expect(await page.getByText('The old key keeps working until').isVisible()).toBe(true);
    await page.getByRole('link', { name: 'Back to API keys' }).click();
    expect(await page.locator('tr.key-row.revoking').count()).toBe(1);
    expect(await page.content()).not.toContain(newKey);
  });
});

describe('screenshots', () => {
  for (const [device, viewport] of SCREENS) {
    it(`every dashboard page on a ${device}`, async () => {
      const visitor = await person({ viewport });
      await visitor.page.goto(`${suite.service.origin}/dashboard/login`);
      await snap(visitor.page, `dashboard-${device}-01-login`);
      await visitor.page.getByLabel('Email').fill(MERCHANT.email);
      await visitor.page.getByLabel('Password').fill('not the password');
      await visitor.page.getByRole('button', { name: 'Log in' }).click();
      await visitor.page.getByRole('alert').waitFor();
      await snap(visitor.page, `dashboard-${device}-02-login-wrong`);
      await visitor.page.goto(`${suite.service.origin}/dashboard/signup`);
      await snap(visitor.page, `dashboard-${device}-03-signup`);
      await visitor.page.getByLabel('Business name').fill('Everest Momo Co.');
      const momo = `momo-${device}-${Date.now()}@example.com`;
      await visitor.page.getByLabel('Email').fill(momo);
      await visitor.page.getByLabel('Password').fill('momo momo momo');
      await visitor.page.getByRole('button', { name: 'Create account' }).click();
      await visitor.page.getByRole('heading', { level: 1, name: 'Check your e-mail' }).waitFor();
      await snap(visitor.page, `dashboard-${device}-03a-check-email`);
      await visitor.page.goto(`${suite.service.origin}${await mailedLinkSoon(momo, 'signup')}`);
      await visitor.page.getByRole('button', { name: 'Create account' }).click();
      await visitor.page.getByRole('heading', { name: 'Welcome, Everest Momo Co.' }).waitFor();
      await snap(visitor.page, `dashboard-${device}-03b-welcome-keys`);

      const { page } = await person({ viewport });
      await logIn(page);
      // Something to look at: a few more payments, one of them with a long order name.
      for (const extra of [order({ amount: 250000 }), order({ amount: 99900, purchase_order_name: 'A very long order name: Ilam first flush, Darjeeling second flush and masala chai for the whole office' })]) {
        await payOnPortal((await initiateWith(testKey, extra)).payment_url);
      }
      await page.goto(`${suite.service.origin}/dashboard`);
      await snap(page, `dashboard-${device}-04-home`);
      await page.goto(`${suite.service.origin}/dashboard/transactions`);
      await snap(page, `dashboard-${device}-05-transactions`);
      await page.goto(`${suite.service.origin}/dashboard/payments/${paid.pidx}`);
      await snap(page, `dashboard-${device}-06-payment-refunded`);

      const open = await initiateWith(testKey, order({ amount: 77700 }));
      await payOnPortal(open.payment_url);
      await page.goto(`${suite.service.origin}/dashboard/payments/${open.pidx}`);
      await snap(page, `dashboard-${device}-07-payment`);
      await refund(page, '1000');
      await page.getByRole('alert').waitFor();
      await snap(page, `dashboard-${device}-08-refund-error`);
      await refund(page, '100');
      await snap(page, `dashboard-${device}-09-refund-confirm`);
      await page.getByRole('link', { name: 'Back', exact: true }).click();

      await page.goto(`${suite.service.origin}/dashboard/keys`);
      await snap(page, `dashboard-${device}-10-keys`);
      await page.getByRole('button', { name: 'Review rotation' }).click();
      await snap(page, `dashboard-${device}-11-rotate-confirm`);

      await envBar(page).getByRole('button', { name: 'Switch to live data' }).click();
      await page.goto(`${suite.service.origin}/dashboard`);
      await snap(page, `dashboard-${device}-12-home-live`);
      await envBar(page).getByRole('button', { name: 'Switch to test data' }).click();
      await page.goto(`${suite.service.origin}/dashboard/payments/not-a-payment`);
      await snap(page, `dashboard-${device}-13-not-found`);
    });
  }
});
