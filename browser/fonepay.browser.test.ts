// Paying with Fonepay in headless Chromium, against the sandbox's Fonepay simulator: the web checkout
// (Pay, Decline) and the QR, paid from a second page (the bank app) while the first waits and moves
// on by itself; in English and in Nepali, at a desktop's and a phone's width.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { en, type Messages } from '../src/language/en.js';
import { ne } from '../src/language/ne.js';
import { browserSuite, inNepali, landOnMerchant, onDevice, screenshot } from './harness.js';

const suite = browserSuite({ merchantName: 'Himalayan Tea House', ownDb: true });

const order = () => ({
  return_url: `${suite.shop.origin}/orders/return?cart=7`,
  website_url: `${suite.shop.origin}/`,
  amount: 45050,
  purchase_order_id: `order-${Date.now()}-${Math.random()}`,
  purchase_order_name: 'Ilam first flush',
});

/** The hosted page's provider buttons, in the order a payer reads them. */
const providerButtons = (page: Page) => page.locator('.provider-buttons button').evaluateAll((buttons) => buttons.filter((b) => (b as HTMLElement).offsetParent !== null).map((b) => b.textContent?.trim()));

describe.each([
  ['English at a desktop’s width', en, onDevice('desktop'), 'desktop'],
  ['Nepali at a phone’s width', ne, inNepali(onDevice('phone')), 'phone'],
] as [string, Messages, ReturnType<typeof onDevice>, 'desktop' | 'phone'][])('Fonepay, %s', (_name, t, device, size) => {
  it('pays with the Fonepay web checkout', async () => {
    const initiated = await suite.service.initiate(order());
    const { page } = await suite.person(device);
    await page.goto(initiated.payment_url);
    const buttons = await providerButtons(page);
    // On a phone the QR is little use to the phone that shows it: the web checkout comes first.
    if (size === 'phone') expect(buttons.indexOf('Fonepay')).toBeLessThan(buttons.indexOf('Fonepay QR'));
    await page.getByRole('button', { name: 'Fonepay', exact: true }).click();
    await page.getByRole('heading', { name: 'Ilam first flush' }).waitFor();
    await page.getByRole('button', { name: 'Pay', exact: true }).click();
    const params = await landOnMerchant(page, suite.shop);
    expect(params).toMatchObject({ pidx: initiated.pidx, status: 'Completed', amount: '45050', cart: '7' });
    expect((await suite.service.lookup(initiated.pidx)).body.status).toBe('Completed');
  });

  it('declines on the Fonepay web checkout and is back on the hosted page, uncharged', async () => {
    const initiated = await suite.service.initiate(order());
    const { page } = await suite.person(device);
    await page.goto(initiated.payment_url);
    await page.getByRole('button', { name: 'Fonepay', exact: true }).click();
    await page.getByRole('button', { name: 'Decline', exact: true }).click();
    // The hosted page says where the payer was not charged (Fonepay), when it knows.
    await page.getByText(t.providers.notPaidThere('Fonepay')).or(page.getByText(t.payerErrors.provider_not_paid)).first().waitFor();
    expect((await suite.service.lookup(initiated.pidx)).body.status).toBe('Initiated');
  });

  it('shows the Fonepay QR, and moves on by itself once a bank app pays it from another page', async () => {
    const initiated = await suite.service.initiate(order());
    const { page } = await suite.person(device);
    await page.goto(initiated.payment_url);
    await page.getByRole('button', { name: 'Fonepay QR', exact: true }).click();
    await page.getByRole('heading', { name: t.qrWay.title('Fonepay QR') }).waitFor();
    await expect.poll(() => page.getByRole('img', { name: /Fonepay QR/ }).count()).toBe(1);
    await page.getByText(t.qrWay.waiting).waitFor();
    await screenshot(page, `fonepay-qr-${size}`);
    const bankApp = await page.getByRole('link', { name: t.qrWay.sandboxBankApp }).getAttribute('href');
    const second = await page.context().newPage();
    await second.goto(bankApp!);
    await second.getByRole('button', { name: 'Pay', exact: true }).click();
    await second.getByRole('status').getByText('You paid Rs. 450.50.').waitFor();
    // The QR page moves on by itself (its script asks every two seconds): nobody clicks it.
    const params = await landOnMerchant(page, suite.shop);
    expect(params).toMatchObject({ pidx: initiated.pidx, status: 'Completed', amount: '45050' });
    await second.close();
  });
});
