// The payment page and refunds through the dashboard's forms, and that a merchant sees only its own
// payments of the environment it has chosen.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { merchantApi, validInitiate } from '../../test/api-client.js';
import { merchantBrowser, pageText, paidPayment, type MerchantBrowser } from '../../test/dashboard-client.js';
import { callbackParams, operatorWallet, payerBrowser, payWithLiveWallet } from '../../test/portal-client.js';
import { approveSignedUp } from '../../test/merchant-approval.js';
import { startTestApp, type TestApp } from '../../test/test-app.js';
import { verifyLedger } from '../ledger/verify-ledger.js';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());
afterEach(async () => {
  expect((await verifyLedger(t.db)).filter((r) => !r.holds)).toEqual([]);
});

async function signedUp() {
  const browser = merchantBrowser(t.app);
  const { keys, fields } = await browser.signUp();
  // Approved, so that its live key works too.
  await approveSignedUp(t.ctx, fields.email);
  return { browser, keys, api: merchantApi(t.app, keys.test) };
}

/** Refund through the forms: the amount, the confirmation page, Confirm refund. */
async function refundThroughForms(browser: MerchantBrowser, pidx: string, amount: string) {
  await browser.get(`/dashboard/payments/${pidx}`);
  const review = await browser.post(`/dashboard/payments/${pidx}/refund`, { amount });
  if (review.status !== 200) return { review };
  const fields = Object.fromEntries([...review.body.matchAll(/<input type="hidden" name="(amount_paisa|refunded_before)" value="([^"]*)">/g)].map((m) => [m[1], m[2]]));
  const confirmed = await browser.post(`/dashboard/payments/${pidx}/refund/confirm`, fields);
  return { review, fields, confirmed, page: confirmed.location ? await browser.get(confirmed.location) : undefined };
}

describe('the payment page', () => {
  it('shows amounts, fee, breakdown, products, customer, masked payer, the timeline and the callback that was sent', async () => {
    const { browser, keys, api } = await signedUp();
    const order = validInitiate({
      amount: 123456,
      purchase_order_name: 'Tea for the office',
      customer_info: { name: 'Sita Sharma', email: 'sita@example.com', phone: '9812345678' },
      amount_breakdown: [
        { label: 'Tea', amount: 100000 },
        { label: 'Delivery', amount: 23456 },
      ],
      product_details: [{ identity: 'tea-ilam', name: 'Ilam first flush', total_price: 100000, quantity: 2, unit_price: 50000 }],
      merchant_extra: 'cart 7',
    });
    const { body: initiated } = await api.initiate(order);
    const payer = payerBrowser(t.app);
    await payer.open(initiated.pidx);
    await payer.wallet(initiated.pidx, '9800000003', '9999');
    const done = await payer.pay(initiated.pidx, '9800000003');
    expect(done.status).toBe(303);

    const page = await browser.get(`/dashboard/payments/${initiated.pidx}`);
    expect(page.status).toBe(200);
    const text = pageText(page.body);
    for (const expected of [
      'Tea for the office',
      'Completed',
      'Amount Rs. 1,234.56',
      'Fee Rs. 37.04 (3%)',
      'You receive Rs. 1,197.52',
      'Tea Rs. 1,000.00',
      'Delivery Rs. 234.56',
      'Ilam first flush tea-ilam 2 Rs. 500.00 Rs. 1,000.00',
      'Sita Sharma',
      'sita@example.com',
      'Wallet 98XXXXXXX3',
      'merchant_extra cart 7',
      order.purchase_order_id as string,
    ]) {
      expect(text).toContain(expected);
    }
    expect(text).not.toContain('9800000003');
    const timeline = [...page.body.matchAll(/<p class="event-title">([^<]+)<\/p>/g)].map((m) => m[1]);
    expect(timeline).toEqual(['Payment initiated', 'Wrong MPIN', 'Payer started paying', 'Paid']);
    expect(text).toMatch(/A wrong MPIN was entered from 98XXXXXXX3\. \d{1,2} \w{3} \d{4}, \d\d:\d\d:\d\d/);
    const shownCallback = /data-testid="callback-url"><code>([^<]+)<\/code>/.exec(page.body)![1].replace(/&amp;/g, '&');
    expect(shownCallback).toBe(done.location);
    expect(callbackParams(shownCallback)).toMatchObject({ pidx: initiated.pidx, status: 'Completed' });
    expect(keys.test).toBeTruthy();
  });

  it('shows an unpaid payment without callback or refund form, and an expired one as expired', async () => {
    const { browser, api } = await signedUp();
    const { body: initiated } = await api.initiate();
    const page = await browser.get(`/dashboard/payments/${initiated.pidx}`);
    expect(pageText(page.body)).toContain('Not sent: the payer has not finished a payment attempt.');
    expect(page.body).not.toContain('name="amount"');
    expect(pageText(page.body)).toContain('Initiated');

    t.clock.advance(t.ctx.config.paymentTtlSeconds + 1);
    const expired = await browser.get(`/dashboard/payments/${initiated.pidx}`);
    expect(pageText(expired.body)).toContain('Expired');
    expect([...expired.body.matchAll(/<p class="event-title">([^<]+)<\/p>/g)].map((m) => m[1])).toEqual(['Payment initiated', 'Link expired']);
  });

  it('shows a canceled payment’s callback with status User canceled', async () => {
    const { browser, api } = await signedUp();
    const { body: initiated } = await api.initiate();
    const payer = payerBrowser(t.app);
    await payer.open(initiated.pidx);
    const done = await payer.cancel(initiated.pidx);
    const page = await browser.get(`/dashboard/payments/${initiated.pidx}`);
    expect(pageText(page.body)).toContain('Canceled by the payer');
    const shown = /data-testid="callback-url"><code>([^<]+)<\/code>/.exec(page.body)![1].replace(/&amp;/g, '&');
    expect(shown).toBe(done.location);
  });

  it('escapes what the merchant sent', async () => {
    const { browser, api } = await signedUp();
    const { body: initiated } = await api.initiate(validInitiate({ purchase_order_name: '<script>alert(1)</script>', customer_info: { name: '<img src=x onerror=alert(2)>' } }));
    const page = await browser.get(`/dashboard/payments/${initiated.pidx}`);
    expect(page.body).not.toContain('<script>alert(1)</script>');
    expect(page.body).not.toContain('<img src=x');
    expect(page.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });
});

describe('refunds from the payment page', () => {
  it('refunds part, with a confirmation step, then the rest; lookup agrees at each step', async () => {
    const { browser, keys, api } = await signedUp();
    // Another payment's money: the whole refund gives back the fee too, which the balance must hold.
    await paidPayment(t.app, keys.test, { amount: 10_000 });
    const paid = await paidPayment(t.app, keys.test, { amount: 123456 });

    const partial = await refundThroughForms(browser, paid.pidx, '1,000.50');
    expect(partial.review.status).toBe(200);
    expect(pageText(partial.review.body)).toContain('Refund Rs. 1,000.50 to 98XXXXXXX1?');
    expect(pageText(partial.review.body)).toContain('Rs. 234.06 still refundable');
    expect(partial.fields).toEqual({ amount_paisa: '100050', refunded_before: '0' });
    expect(partial.confirmed!.status).toBe(303);
    expect(partial.confirmed!.location).toMatch(new RegExp(`^/dashboard/payments/${paid.pidx}\\?refund=[\\w-]+$`));
    const afterPartial = pageText(partial.page!.body);
    expect(afterPartial).toContain('Refunded Rs. 1,000.50 to 98XXXXXXX1.');
    expect(afterPartial).toContain('Partially refunded');
    expect(afterPartial).toContain('Refundable Rs. 234.06');
    expect(afterPartial).toContain('Refunded Rs. 1,000.50 Sent back to the payer’s wallet.');
    expect((await api.lookup(paid.pidx)).body).toMatchObject({ status: 'Partially refunded', refunded_amount: 100050, refunded: true });

    const rest = await refundThroughForms(browser, paid.pidx, '');
    expect(pageText(rest.review.body)).toContain('Refund Rs. 234.06 to 98XXXXXXX1?');
    expect(pageText(rest.review.body)).toContain('Fully refunded');
    expect(rest.confirmed!.status).toBe(303);
    const refundedPage = rest.page!.body;
    expect(pageText(refundedPage)).toContain('Refunded Rs. 234.06 to 98XXXXXXX1.');
    expect(/data-testid="status">(.*?)<\/span><\/span>/.exec(refundedPage)![1]).toContain('Refunded');
    expect(refundedPage).not.toContain('name="amount"');
    expect((await api.lookup(paid.pidx)).body).toMatchObject({ status: 'Refunded', refunded_amount: 123456 });
  });

  it('reads rupees exactly and explains amounts it cannot take', async () => {
    const { browser, keys } = await signedUp();
    const paid = await paidPayment(t.app, keys.test, { amount: 5000 });
    const cases: [string, string][] = [
      ['50.01', 'You can refund at most Rs. 50.00.'],
      ['0', 'Enter an amount of at least Rs. 0.01.'],
      ['0.00', 'Enter an amount of at least Rs. 0.01.'],
      ['12.345', 'Enter the amount in rupees, with up to two decimals'],
      ['-5', 'Enter the amount in rupees'],
      ['five', 'Enter the amount in rupees'],
      ['1e3', 'Enter the amount in rupees'],
    ];
    for (const [amount, message] of cases) {
      const { review } = await refundThroughForms(browser, paid.pidx, amount);
      expect(review.status, amount).toBe(400);
      expect(pageText(review.body), amount).toContain(message);
      expect(review.body).toContain(`value="${amount}"`);
    }
    for (const [amount, paisa] of [
      ['0.1', '10'],
      ['0.29', '29'],
      ['Rs. 12.5', '1250'],
      ['50', '5000'],
    ]) {
      await browser.get(`/dashboard/payments/${paid.pidx}`);
      const review = await browser.post(`/dashboard/payments/${paid.pidx}/refund`, { amount });
      expect(review.body, amount).toContain(`name="amount_paisa" value="${paisa}"`);
    }
    expect((await t.db.query(`SELECT 1 FROM transactions WHERE pidx = $1 AND type = 'Refund'`, [paid.pidx])).length).toBe(0);
  });

  it('refunds once when Confirm is pressed twice', async () => {
    const { browser, keys } = await signedUp();
    const paid = await paidPayment(t.app, keys.test, { amount: 5000 });
    const { fields, confirmed } = await refundThroughForms(browser, paid.pidx, '10');
    expect(confirmed!.status).toBe(303);
    const again = await browser.post(`/dashboard/payments/${paid.pidx}/refund/confirm`, fields!);
    expect(again.status).toBe(400);
    expect(pageText(again.body)).toContain('This payment changed since you reviewed the refund, so nothing was refunded.');
    const refunds = await t.db.query(`SELECT 1 FROM transactions WHERE pidx = $1 AND type = 'Refund'`, [paid.pidx]);
    expect(refunds).toHaveLength(1);
  });

  it('refuses a tampered confirmation over the refundable amount', async () => {
    const { browser, keys } = await signedUp();
    const paid = await paidPayment(t.app, keys.test, { amount: 5000 });
    await browser.get(`/dashboard/payments/${paid.pidx}`);
    const response = await browser.post(`/dashboard/payments/${paid.pidx}/refund/confirm`, { amount_paisa: '5001', refunded_before: '0' });
    expect(response.status).toBe(400);
    expect(pageText(response.body)).toContain('You can refund at most Rs. 50.00.');
  });

  it('a refund of a test payment touches only the test ledger', async () => {
    const { browser, keys } = await signedUp();
    const paid = await paidPayment(t.app, keys.test, { amount: 5000 });
    // The merchant's live accounts, and any live journal of the payment (other test files write
    // live journals of their own meanwhile, on a shared PostgreSQL database).
    const live = async () =>
      (
        await t.db.query(
          `SELECT (SELECT count(*)::int FROM journals WHERE environment = 'live' AND pidx = $1) AS journals,
                  (SELECT count(*)::int FROM postings p JOIN ledger_accounts a ON a.id = p.account_id
                    WHERE a.environment = 'live' AND a.kind = 'merchant' AND a.owner_id = (SELECT merchant_id FROM payments WHERE pidx = $1)) AS postings`,
          [paid.pidx],
        )
      )[0];
    const liveBefore = await live();
    await refundThroughForms(browser, paid.pidx, '20');
    const journals = await t.db.query<{ environment: string; account_environment: string }>(
      `SELECT j.environment, a.environment AS account_environment FROM journals j JOIN postings p ON p.journal_id = j.id JOIN ledger_accounts a ON a.id = p.account_id
        WHERE j.pidx = $1 AND j.kind = 'refund'`,
      [paid.pidx],
    );
    expect(journals.length).toBe(2);
    expect(journals.every((j) => j.environment === 'test' && j.account_environment === 'test')).toBe(true);
    expect(await live()).toEqual(liveBefore);
  });
});

describe('isolation', () => {
  it('another merchant’s payment is not found, to look at or to refund', async () => {
    const owner = await signedUp();
    const paid = await paidPayment(t.app, owner.keys.test, { amount: 5000 });
    const { browser: intruder } = await signedUp();
    const page = await intruder.get(`/dashboard/payments/${paid.pidx}`);
    expect(page.status).toBe(404);
    expect(pageText(page.body)).toContain('Payment not found');
    expect(page.body).not.toContain(paid.purchaseOrderId);
    expect((await intruder.post(`/dashboard/payments/${paid.pidx}/refund`, { amount: '10' })).status).toBe(404);
    expect((await intruder.post(`/dashboard/payments/${paid.pidx}/refund/confirm`, { amount_paisa: '1000', refunded_before: '0' })).status).toBe(404);
    expect((await owner.api.lookup(paid.pidx)).body).toMatchObject({ status: 'Completed', refunded_amount: 0 });
    expect(pageText((await intruder.get(`/dashboard/transactions?q=${paid.pidx}`)).body)).toContain('No transactions found.');
  });

  it('a payment of the other environment is not found until the merchant switches to it', async () => {
    const { browser, keys } = await signedUp();
    const testPayment = await paidPayment(t.app, keys.test, { amount: 5000 });
    const wallet = await operatorWallet(t.ctx, { balance: 100_000 });
    const { body: livePayment } = await merchantApi(t.app, keys.live).initiate(validInitiate({ amount: 7000 }));
    expect((await payWithLiveWallet(payerBrowser(t.app), t.sentOtps, livePayment.pidx, wallet)).status).toBe(303);

    expect((await browser.get(`/dashboard/payments/${livePayment.pidx}`)).status).toBe(404);
    expect((await browser.post(`/dashboard/payments/${livePayment.pidx}/refund`, { amount: '1' })).status).toBe(404);
    expect((await browser.get(`/dashboard/payments/${testPayment.pidx}`)).status).toBe(200);

    const switched = await browser.useEnvironment('live');
    expect(switched.status).toBe(303);
    expect((await browser.get(`/dashboard/payments/${testPayment.pidx}`)).status).toBe(404);
    const livePage = await browser.get(`/dashboard/payments/${livePayment.pidx}`);
    expect(livePage.status).toBe(200);
    expect(pageText(livePage.body)).toContain('LIVE DATA');

    // A live refund through the forms moves live money only.
    const { page } = await refundThroughForms(browser, livePayment.pidx, '10');
    expect(pageText(page!.body)).toContain('Partially refunded');
    const envs = await t.db.query<{ environment: string }>(`SELECT environment FROM journals WHERE pidx = $1 AND kind = 'refund'`, [livePayment.pidx]);
    expect(envs).toEqual([{ environment: 'live' }]);
  });
});
