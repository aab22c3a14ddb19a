// One person, two businesses, in headless Chromium (issue 24), with a real SMTP server in the test
// process: an accountant follows the first shop's invitation and chooses a password; logged in, they
// follow the second shop's and only press Join; the dashboard's bar then carries the business
// switcher, which takes them from one shop to the other, each with its own payments and their role
// there. A business that is not theirs, posted by hand, is refused. Watched for console errors,
// dialogs and requests to other hosts, like every page of the harness.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { inviteTeamMember } from '../src/people/merchant-team.js';
import { paidPayment } from '../test/dashboard-client.js';
import { newMerchant } from '../test/test-app.js';
import { browserSuite, screenshotsAtBothWidths } from './harness.js';

const suite = browserSuite({ merchantName: 'Harness merchant (unused)', mail: true });

const ACCOUNTANT = { email: `accountant-${Date.now()}@example.com`, password: 'ledgers all day' };

/** A shop with one paid test payment of its own, its owner inviting the accountant as `role`. */
async function shopInviting(name: string, role: 'finance' | 'viewer') {
  const shop = await newMerchant(suite.service.t.ctx, { name });
  const { pidx } = await paidPayment(suite.service.t.app, shop.test_secret_key);
  const actor = { userId: shop.owner.id, email: shop.owner.email, merchantId: shop.merchant.id, merchantName: name };
  await inviteTeamMember(suite.service.t.ctx, { actor, email: ACCOUNTANT.email, role });
  await expect.poll(() => suite.inbox.to(ACCOUNTANT.email).filter((m) => m.subject.includes(name)).length).toBe(1);
  const mail = suite.inbox.to(ACCOUNTANT.email).find((m) => m.subject.includes(name))!;
  return { shop, pidx, link: /(http:\/\/127\.0\.0\.1:\d+\/dashboard\/invitation\/[\w-]{43})/.exec(mail.text)![1] };
}

const switcher = (page: Page) => page.getByRole('combobox', { name: 'Business' });

describe('the business switcher', () => {
  it('an accountant joins two shops, then switches between them from the bar', async () => {
    const books = await shopInviting('Boudha Books', 'finance');
    const tea = await shopInviting('Thamel Tea', 'viewer');
    const { page } = await suite.person();

    // The first invitation: a new account, a password chosen; one business, so no switcher.
    await page.goto(books.link);
    await page.getByLabel('Choose a password').fill(ACCOUNTANT.password);
    await page.getByLabel('The same password again').fill(ACCOUNTANT.password);
    await page.getByRole('button', { name: 'Join and log in' }).click();
    await page.waitForURL(`${suite.service.origin}/dashboard`);
    expect(await switcher(page).count()).toBe(0);
    expect(await page.locator('.merchant-name').textContent()).toBe('Boudha Books');

    // The second: logged in as that account, the page only asks to join.
    await page.goto(tea.link);
    expect(await page.getByLabel('Your password').count()).toBe(0);
    await page.getByRole('button', { name: 'Join Thamel Tea' }).click();
    await page.waitForURL(`${suite.service.origin}/dashboard`);
    expect(await switcher(page).locator('option').allTextContents()).toEqual(['Boudha Books · finance', 'Thamel Tea · viewer']);
    expect(await switcher(page).inputValue()).toBe(tea.shop.merchant.idx);
    await screenshotsAtBothWidths(page, 'dashboard-business-switcher');

    // Thamel Tea, as a viewer: its payment, not the other's; no export.
    await page.goto(`${suite.service.origin}/dashboard/transactions`);
    expect(await page.locator(`a[href="/dashboard/payments/${tea.pidx}"]`).count()).toBeGreaterThan(0);
    expect(await page.locator(`a[href="/dashboard/payments/${books.pidx}"]`).count()).toBe(0);
    expect(await page.getByRole('link', { name: /CSV/ }).count()).toBe(0);

    // With the keyboard: the switcher, then its button.
    await switcher(page).focus();
    await switcher(page).selectOption({ label: 'Boudha Books · finance' });
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${suite.service.origin}/dashboard`);
    expect(await switcher(page).inputValue()).toBe(books.shop.merchant.idx);
    await page.goto(`${suite.service.origin}/dashboard/transactions`);
    expect(await page.locator(`a[href="/dashboard/payments/${books.pidx}"]`).count()).toBeGreaterThan(0);
    expect(await page.locator(`a[href="/dashboard/payments/${tea.pidx}"]`).count()).toBe(0);
    expect(await page.getByRole('link', { name: /CSV/ }).count()).toBe(1);
    // Another shop's payment is not found from here.
    expect((await page.goto(`${suite.service.origin}/dashboard/payments/${tea.pidx}`))?.status()).toBe(404);

    // A business that is not theirs, put in the form by hand: refused, and the session stays on Boudha Books.
    await page.goto(`${suite.service.origin}/dashboard`);
    await page.evaluate(() => {
      const option = document.createElement('option');
      option.value = 'not-one-of-mine00';
      option.textContent = 'Somebody else';
      document.querySelector('#business-switch')!.append(option);
    });
    await switcher(page).selectOption({ label: 'Somebody else' });
    const answer = page.waitForResponse((r) => r.url().endsWith('/dashboard/switch-business'));
    await page.getByRole('button', { name: 'Switch', exact: true }).click();
    expect((await answer).status()).toBe(404);
    await page.getByRole('heading', { name: 'Business not found' }).waitFor();
    await page.goto(`${suite.service.origin}/dashboard`);
    expect(await switcher(page).inputValue()).toBe(books.shop.merchant.idx);
  });
});
