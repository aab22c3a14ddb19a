// Going live in headless Chromium, as a merchant does it without JavaScript: sign up, see on live
// data that live payments are off, fill in the business details (a mistake first), apply, be
// rejected with a reason, correct and apply again, be approved, and the live key works. Then the
// operator suspends it and a payer on its live hosted page is told no payment can be taken.
// Pictures at phone and desktop widths go to browser/screenshots/ (not committed).
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CLI_ACTOR } from '../src/audit/audit-entry.js';
import { approveMerchant, rejectMerchant, suspendMerchant } from '../src/merchants/decide-merchant.js';
import { browserSuite, SCREENS, screenshot as snap, signUpInBrowser } from './harness.js';

const suite = browserSuite({ merchantName: 'Harness merchant (unused)' });

/** Without JavaScript: every step of going live is a plain form. */
const person = (viewport: { width: number; height: number }) => suite.person({ viewport, javaScriptEnabled: false });

async function initiateLive(key: string) {
  return fetch(`${suite.service.origin}/api/v2/epayment/initiate/`, {
    method: 'POST',
    headers: { authorization: `Key ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ return_url: `${suite.shop.origin}/orders/return`, website_url: `${suite.shop.origin}/`, amount: 150000, purchase_order_id: `GL-${Date.now()}`, purchase_order_name: 'First flush, 3 tins' }),
  });
}

const status = (page: Page) => page.locator('.approval-status');

describe('going live', () => {
  for (const [device, viewport] of SCREENS) {
    it(`a merchant applies on the website and is approved, on a ${device}`, async () => {
      const { page } = await person(viewport);
      const name = `Everest Momo ${device}`;
      const email = `momo-${device}-${Date.now()}@example.com`;
      // The sign-up's e-mailed link (the log's: no SMTP here) confirms the address, which going live needs.
      await signUpInBrowser(page, suite.service.origin, { name, email, password: 'momo momo momo' });
      await page.getByRole('heading', { name: `Welcome, ${name}` }).waitFor();
      const liveKey = (await page.getByLabel('Live secret key').textContent())!.trim();
      expect((await initiateLive(liveKey)).status).toBe(403);

      // On live data, the banner; it leads to the Go live page.
      await page.goto(`${suite.service.origin}/dashboard`);
      await page.getByRole('button', { name: 'Switch to live data' }).click();
      await page.getByText('Live payments are off until your business is approved.').waitFor();
      await snap(page, `onboarding-${device}-01-live-banner`);
      await page.getByRole('link', { name: 'Go live' }).first().click();
      await page.getByRole('heading', { level: 1, name: 'Go live' }).waitFor();
      expect(await status(page).textContent()).toContain('Test only');
      await snap(page, `onboarding-${device}-02-form`);

      // A mistake first: the page says which field and keeps what was typed.
      await page.getByLabel('Legal name').fill(`${name} Pvt. Ltd.`);
      await page.getByLabel('Type of business').selectOption('Private limited company');
      await page.getByLabel('PAN / VAT number').fill('12345');
      await page.getByLabel('Registered address').fill('Jhamsikhel, Lalitpur');
      await page.getByLabel('Contact person').fill('Pasang Sherpa');
      await page.getByLabel('Phone').fill('9841000000');
      await page.getByLabel('Bank', { exact: true }).fill('Nabil Bank');
      await page.getByLabel('Branch', { exact: true }).fill('Pulchowk');
      await page.getByLabel('Account name').fill(`${name} Pvt. Ltd.`);
      await page.getByLabel('Account number').fill('0101 0172 5300 12');
      await page.getByRole('button', { name: 'Apply to go live' }).click();
      await page.getByText('Enter the PAN or VAT number: 9 digits.').waitFor();
      expect(await page.getByLabel('Legal name').inputValue()).toBe(`${name} Pvt. Ltd.`);
      await snap(page, `onboarding-${device}-03-form-error`);
      await page.getByLabel('PAN / VAT number').fill('302 456 789');
      await page.getByRole('button', { name: 'Apply to go live' }).click();
      await status(page).getByText('Applied · waiting for review').waitFor();
      expect(await page.locator('.facts').textContent()).toContain('••••0012');
      await snap(page, `onboarding-${device}-04-applied`);

      // The operator rejects it with a reason; the merchant corrects its details and applies again.
      const [{ idx }] = await suite.service.t.db.query<{ idx: string }>('SELECT idx FROM merchants WHERE email = $1', [email]);
      await rejectMerchant(suite.service.t.ctx, { actor: CLI_ACTOR, merchantIdx: idx, reason: 'The account name does not match the legal name on the PAN certificate.' });
      await page.reload();
      await status(page).getByText('Not approved').waitFor();
      expect(await status(page).textContent()).toContain('The account name does not match the legal name on the PAN certificate.');
      await snap(page, `onboarding-${device}-05-rejected`);
      expect(await page.getByLabel('PAN / VAT number').inputValue()).toBe('302456789');
      await page.getByLabel('Account name').fill(`${name} Private Limited`);
      await page.getByRole('button', { name: 'Apply to go live' }).click();
      await status(page).getByText('Applied · waiting for review').waitFor();

      await approveMerchant(suite.service.t.ctx, { actor: CLI_ACTOR, merchantIdx: idx });
      await page.reload();
      await status(page).getByText('Approved', { exact: true }).waitFor();
      expect(await page.getByText('Live payments are off').count()).toBe(0);
      await snap(page, `onboarding-${device}-06-approved`);
      const live = await initiateLive(liveKey);
      expect(live.status).toBe(200);
      const { payment_url } = (await live.json()) as { payment_url: string };

      // Suspended: the banner says so, and the payer's live page takes no payment.
      await suspendMerchant(suite.service.t.ctx, { actor: CLI_ACTOR, merchantIdx: idx, reason: 'Chargebacks under review.' });
      await page.goto(`${suite.service.origin}/dashboard`);
      await page.getByText('Your merchant account is suspended: live payments are off.').waitFor();
      await snap(page, `onboarding-${device}-07-suspended-home`);
      const payer = await person(viewport);
      await payer.page.goto(payment_url);
      await payer.page.getByRole('heading', { name: 'Payments unavailable' }).waitFor();
      expect(await payer.page.getByLabel('MPIN').count()).toBe(0);
      await snap(payer.page, `onboarding-${device}-08-portal-suspended`);
      expect((await initiateLive(liveKey)).status).toBe(403);
    });
  }
});
