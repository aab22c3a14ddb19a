// The console's payout rail in real Chromium: a merchant's account whose holder NPI could not match
// holds its test payout; finance sees NPI's score and words beside the merchant's name, approves the
// account with a reason, and the payout goes through NPI's simulator; its page shows NPI's ids. Each
// page is photographed at phone and desktop widths (and, as every page of the suite, watched for
// console errors and CSP violations).
import { beforeAll, describe, expect, it } from 'vitest';
import { merchantApi, validInitiate } from '../test/api-client.js';
import { newOperator, type TestOperator } from '../test/console-client.js';
import { merchantIn } from '../test/merchant-approval.js';
import { payerBrowser } from '../test/portal-client.js';
import { runPayoutRails } from '../src/jobs/payout-rails-job.js';
import { changeBankAccount } from '../src/merchants/change-bank-account.js';
import { requestPayout } from '../src/settlements/request-payout.js';
import { findPayout } from '../src/settlements/payout-store.js';
import { browserSuite, screenshotsAtBothWidths, signInToConsole } from './harness.js';

// Its own store: the payout rails' job moves every payout of the store it runs on.
const suite = browserSuite({ merchantName: 'Annapurna Teas', shop: false, ownDb: true });

let operator: TestOperator;
beforeAll(async () => {
  operator = await newOperator(suite.service.t.ctx, 'finance');
});

describe('the payout rail page', () => {
  it('finance approves an account NPI could not match, with a reason, and its payout goes through NPI', async () => {
    const { t } = suite.service;
    const shop = await merchantIn(t.ctx, 'approved');
    await changeBankAccount(t.ctx, {
      merchantId: shop.merchant.id,
      userId: shop.owner.id,
      account: { bank_name: 'Nepal Bank Ltd.', branch: 'New Road', account_name: 'Himalayan Tea House Pvt. Ltd.', account_number: '012345678900002', bank_code: '0401' },
    });
    const { body } = await merchantApi(t.app, shop.test_secret_key).initiate(validInitiate({ amount: 25_000 }));
    expect((await payerBrowser(t.app).pay(body.pidx)).status).toBe(303);
    const payout = await requestPayout(t.ctx, { merchantId: shop.merchant.id, environment: 'test', requestedBy: 'api' });
    await runPayoutRails(t.ctx);

    const page = (await suite.person({}, [suite.service.origin])).page;
    await signInToConsole(page, suite.service.origin, operator, () => t.clock.now());
    await page.getByRole('link', { name: 'Payouts', exact: true }).click();
    await page.getByRole('link', { name: 'Payout rail' }).click();
    const row = page.locator('tr[data-check]').filter({ hasText: shop.merchant.name });
    await row.waitFor();
    expect(await row.textContent()).toMatch(/\d+ of 100/);
    await screenshotsAtBothWidths(page, 'console-payout-rail');
    await row.getByLabel('Why it may be paid').fill('The bank’s letter confirms the company holds the account.');
    await row.getByRole('button', { name: 'Approve' }).click();
    await page.getByText('The account is approved').waitFor();
    expect(await page.locator('tr[data-check]').filter({ hasText: shop.merchant.name }).count()).toBe(0);

    await runPayoutRails(t.ctx);
    expect((await findPayout(t.db, payout.idx))!.state).toBe('Paid');
    await page.goto(`${suite.service.origin}/console/payouts/${payout.idx}`);
    await page.getByRole('heading', { name: 'Through NPI' }).waitFor();
    expect(await page.getByText('connectIPS (real time)').count()).toBe(1);
    await screenshotsAtBothWidths(page, 'console-payout-npi');
  });
});
