// An operator's day in real Chromium (issue 16): sign in with a TOTP code, approve a merchant that
// applied (its live key then works), suspend it (live initiate 403), resolve a Pending payment,
// make, top up and freeze a wallet and see the hosted page refuse it, and find each action in the
// audit log. Every console page visited is photographed at phone and desktop widths.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { newOperator, type TestOperator } from '../test/console-client.js';
import { merchantIn } from '../test/merchant-approval.js';
import { browserSuite, DESKTOP, enterOtp, enterWallet, landOnMerchant, PHONE, SANDBOX, screenshot, screenshotsAtBothWidths, signInToConsole } from './harness.js';

const suite = browserSuite({ merchantName: 'Everest Outfitters' });

let operator: TestOperator;
beforeAll(async () => {
  operator = await newOperator(suite.service.t.ctx, 'admin');
});

const photograph = (page: Page, name: string) => screenshotsAtBothWidths(page, `console-${name}`);

async function liveInitiate(key: string): Promise<number> {
  const response = await fetch(`${suite.service.origin}/api/v2/epayment/initiate/`, {
    method: 'POST',
    headers: { authorization: `Key ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ return_url: `${suite.shop.origin}/orders/return`, website_url: `${suite.shop.origin}/`, amount: 1000, purchase_order_id: `live-${Date.now()}`, purchase_order_name: 'Live check' }),
  });
  return response.status;
}

describe("an operator's day", () => {
  it('signs in, approves and suspends a merchant, resolves a Pending payment, freezes a wallet, and finds it all in the audit log', async () => {
    // The operator's pages ask the service only.
    const console_ = await suite.person({}, [suite.service.origin]);
    const page = console_.page;
    await signInToConsole(page, suite.service.origin, operator, () => suite.service.t.clock.now());

    // A merchant that applied to go live with its business details.
    const applicant = await merchantIn(suite.service.t.ctx, 'applied');
    expect(await liveInitiate(applicant.live_secret_key)).toBe(403);
    await page.getByRole('link', { name: 'Merchants', exact: true }).click();
    await page.getByRole('link', { name: 'Applied' }).click();
    await photograph(page, 'merchants');
    await page.getByRole('link', { name: applicant.merchant.name }).click();
    await page.getByText('••••7890').waitFor();
    await photograph(page, 'merchant');
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByText('The merchant is approved').waitFor();
    expect(await liveInitiate(applicant.live_secret_key)).toBe(200);
    await page.locator('#suspend-reason').fill('Chargebacks under review');
    await page.getByRole('button', { name: 'Suspend' }).click();
    await page.getByText('The merchant is suspended').waitFor();
    expect(await liveInitiate(applicant.live_secret_key)).toBe(403);

    // A payer pays with the sandbox's pending wallet: the payment waits for the operator.
    const held = await suite.service.initiate({ return_url: `${suite.shop.origin}/orders/return`, website_url: `${suite.shop.origin}/`, amount: 54321, purchase_order_id: `held-${Date.now()}`, purchase_order_name: 'Down jacket' });
    const payer = await suite.person();
    await payer.page.goto(held.payment_url);
    await enterWallet(payer.page, SANDBOX.pendingMobile, SANDBOX.mpin);
    await enterOtp(payer.page, SANDBOX.otp);
    expect((await landOnMerchant(payer.page, suite.shop)).status).toBe('Pending');

    await page.getByRole('link', { name: 'Payments', exact: true }).click();
    await page.getByLabel('pidx, transaction id, purchase order id or payer mobile').fill(held.pidx);
    await page.getByRole('button', { name: 'Search' }).click();
    await photograph(page, 'payments');
    await page.getByRole('link', { name: 'Down jacket' }).first().click();
    await page.getByLabel('Completed').check();
    await page.locator('#resolve-reason').fill('Wallet provider confirmed the debit');
    await photograph(page, 'payment');
    await page.getByRole('button', { name: 'Resolve' }).click();
    await page.getByText('The payment is resolved.').waitFor();
    await page.getByText('Resolved as Completed').waitFor();
    expect((await suite.service.lookup(held.pidx)).body.status).toBe('Completed');

    // A wallet made and topped up here, then frozen: the hosted page refuses it.
    const mobile = `96${String(Date.now()).slice(-8)}`;
    await page.getByRole('link', { name: 'Wallets', exact: true }).click();
    await page.getByLabel('Mobile', { exact: true }).fill(mobile);
    await page.getByLabel('Name').fill('Pemba Sherpa');
    await page.getByLabel('MPIN (4 digits, for the payer)').fill('2580');
    await page.locator('#w-env').selectOption('test');
    await photograph(page, 'wallets');
    await page.getByRole('button', { name: 'Create wallet' }).click();
    await page.getByText('The wallet is created.').waitFor();
    await page.getByLabel('Amount in paisa').fill('500000');
    await page.locator('#topup-reason').fill('Opening balance');
    await page.getByRole('button', { name: 'Top up' }).click();
    await page.getByTestId('balance').getByText('Rs. 5,000.00').waitFor();
    await page.locator('#freeze-reason').fill('Phone reported stolen');
    await page.getByRole('button', { name: 'Freeze wallet' }).click();
    await page.getByText('The wallet is frozen').waitFor();
    await photograph(page, 'wallet');

    const order = await suite.service.initiate({ return_url: `${suite.shop.origin}/orders/return`, website_url: `${suite.shop.origin}/`, amount: 1500, purchase_order_id: `frozen-${Date.now()}`, purchase_order_name: 'Trekking poles' });
    await payer.page.goto(order.payment_url);
    await enterWallet(payer.page, mobile, '2580');
    await payer.page.getByText('This wallet is frozen and cannot pay.').waitFor();
    await payer.page.setViewportSize(PHONE);
    await screenshot(payer.page, 'console-frozen-wallet-refused-phone');
    expect((await suite.service.lookup(order.pidx)).body.status).toBe('Initiated');
    await payer.context.close();
    expect(payer.problems).toEqual([]);

    // Every action, in the audit log, by this operator.
    await page.setViewportSize(DESKTOP);
    await page.getByRole('link', { name: 'Audit log' }).click();
    for (const action of ['merchant.approve', 'merchant.suspend', 'payment.resolve', 'wallet.create', 'wallet.topup', 'wallet.freeze']) {
      await expect(page.getByText(action, { exact: true }).first().isVisible()).resolves.toBe(true);
    }
    await photograph(page, 'audit');
    expect(console_.problems).toEqual([]);
    expect(await suite.service.brokenLedgerInvariants()).toEqual([]);
  });
});
