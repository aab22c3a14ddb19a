// Money out, in real Chromium (issue 18): an approved merchant with live payments requests a payout
// of all that is available on the Settlements page; a finance operator signs in to the console,
// exports the bank's file (the download) and marks the payout Paid with the bank's reference; the
// merchant sees it Paid and downloads its statement, whose lines add up to the payout. Pictures of
// the new pages at phone and desktop widths go to browser/screenshots/.
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { merchantApi, validInitiate } from '../test/api-client.js';
import { newOperator } from '../test/console-client.js';
import { merchantIn } from '../test/merchant-approval.js';
import { operatorWallet, payerBrowser, payWithLiveWallet } from '../test/portal-client.js';
import { totpCode } from '../src/people/totp.js';
import { browserSuite, screenshotsAtBothWidths } from './harness.js';

const suite = browserSuite({ merchantName: 'Harness merchant (unused)' });

/** Parses a CSV without quoted commas into objects by the header. */
function csvRows(text: string): Record<string, string>[] {
  const [header, ...lines] = text.trim().split('\r\n').map((line) => line.split(','));
  return lines.map((cells) => Object.fromEntries(header.map((name, i) => [name, cells[i]])));
}

const photograph = (page: Page, name: string) => screenshotsAtBothWidths(page, `settlements-${name}`);

describe('a live payout from request to statement', () => {
  it('the merchant requests it, the operator exports and marks it Paid, the merchant reads its statement', async () => {
    const { t, origin } = suite.service;
    // An approved merchant (its bank account given when it applied) with two live payments.
    const shop = await merchantIn(t.ctx, 'approved');
    const payer = await operatorWallet(t.ctx, { balance: 1_000_000 });
    for (const amount of [250_000, 123_456]) {
      const { body } = await merchantApi(t.app, shop.live_secret_key).initiate(validInitiate({ amount }));
      expect((await payWithLiveWallet(payerBrowser(t.app), t.sentOtps, body.pidx, payer)).status).toBe(303);
    }
    // 2,500.00 + 1,234.56 less 3% fees: 2,425.00 + 1,197.52.
    const available = 'Rs. 3,622.52';

    const merchant = await suite.person({ acceptDownloads: true });
    const page = merchant.page;
    await page.goto(`${origin}/dashboard/login`);
    await page.getByLabel('Email').fill(shop.merchant.email);
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(`${origin}/dashboard`);
    await page.getByRole('button', { name: 'Switch to live data' }).click();
    await page.getByRole('link', { name: 'Settlements' }).click();
    await page.waitForURL(`${origin}/dashboard/settlements`);
    expect(await page.getByTestId('available').textContent()).toContain(available);
    expect(await page.getByTestId('bank-account').textContent()).toContain('••••7890');
    await photograph(page, 'page');

    await page.getByLabel(/All that is available/).check();
    await page.getByRole('button', { name: 'Request payout' }).click();
    await page.waitForURL(`${origin}/dashboard/settlements?done=requested`);
    await page.getByText('Payout requested.').waitFor();
    expect(await page.getByTestId('clearing').textContent()).toContain(available);
    const row = page.locator('tr[data-idx]');
    expect(await row.count()).toBe(1);
    const idx = (await row.getAttribute('data-idx'))!;
    expect(await row.getAttribute('data-state')).toBe('Requested');

    // The operator: sign in, export the file for the bank, mark the payout Paid.
    const finance = await newOperator(t.ctx, 'finance');
    const operator = await suite.person({ acceptDownloads: true });
    const ops = operator.page;
    await ops.goto(`${origin}/console/login`);
    await ops.getByLabel('E-mail').fill(finance.email);
    await ops.getByLabel('Password').fill(finance.password);
    await ops.getByRole('button', { name: 'Continue' }).click();
    await ops.getByLabel('Code').fill(totpCode(finance.secret, t.clock.now()));
    await ops.getByRole('button', { name: 'Sign in' }).click();
    await ops.getByRole('heading', { name: 'Overview' }).waitFor();
    await ops.getByRole('link', { name: 'Payouts', exact: true }).click();
    await ops.locator(`tr[data-idx="${idx}"]`).waitFor();
    await photograph(ops, 'console-list');
    // The export takes every live Requested payout of the store (on a shared PostgreSQL, others' too): ours is one row.
    const [file] = await Promise.all([ops.waitForEvent('download'), ops.getByRole('button', { name: /^Export \d+ to CSV$/ }).click()]);
    expect(file.suggestedFilename()).toMatch(/^bhuktani-payouts-\d{4}-\d{2}-\d{2}-\w+\.csv$/);
    expect(csvRows(readFileSync((await file.path())!, 'utf8')).filter((row) => row.reference === idx)).toEqual([
      { bank: 'Nepal Bank Ltd.', branch: 'New Road', account_name: 'Himalayan Tea House Pvt. Ltd.', account_number: '001234567890', amount: '3622.52', reference: idx },
    ]);
    await ops.goto(`${origin}/console/payouts?state=Processing`);
    await ops.locator(`a[href="/console/payouts/${idx}"]`).click();
    await ops.getByLabel("Bank's reference").fill('NBL-TT-88213');
    await photograph(ops, 'console-payout');
    await ops.getByRole('button', { name: 'Mark Paid' }).click();
    await ops.getByText('The payout is marked Paid').waitFor();
    expect(await ops.locator('.audit-trail').textContent()).toContain('payout.mark_paid');

    // The merchant sees it Paid and downloads its statement.
    await page.reload();
    expect(await row.getAttribute('data-state')).toBe('Paid');
    expect(await row.textContent()).toContain('NBL-TT-88213');
    await row.getByRole('link', { name: 'Statement' }).click();
    await page.waitForURL(`${origin}/dashboard/settlements/${idx}`);
    expect(await page.getByTestId('total-payout').textContent()).toContain(available);
    expect(await page.getByTestId('bank-reference').textContent()).toContain('NBL-TT-88213');
    await photograph(page, 'statement');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download CSV' }).click()]);
    expect(download.suggestedFilename()).toBe(`bhuktani-live-payout-${idx}.csv`);
    const lines = csvRows(readFileSync((await download.path())!, 'utf8'));
    expect(lines.filter((l) => l.line === 'Payment').map((l) => [l.amount_paisa, l.fee_paisa, l.net_paisa])).toEqual([
      ['250000', '7500', '242500'],
      ['123456', '3704', '119752'],
    ]);
    const payout = lines.at(-1)!;
    expect(payout.line).toBe('Payout Paid');
    expect(payout.net_rupees).toBe('3622.52');
    expect(lines.slice(0, -1).reduce((sum, l) => sum + Number(l.net_paisa), 0)).toBe(Number(payout.net_paisa));
  });
});
