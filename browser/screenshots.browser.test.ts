// Pictures of every portal page on a phone and on a desktop, saved to browser/screenshots/ (not
// committed) for a person to look at. Each page is also checked for what a payer must see on it,
// and for content wider than the screen (sideways scrolling on a phone).
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  DESKTOP,
  enterWallet,
  landOnMerchant,
  enterOtp,
  launchChromium,
  openPayer,
  PHONE,
  SANDBOX,
  startMerchantSite,
  startService,
  type MerchantSite,
  type Payer,
  type Service,
} from './harness.js';

const DIR = fileURLToPath(new URL('./screenshots/', import.meta.url));

let service: Service;
let shop: MerchantSite;
let browser: Browser;
let payers: Payer[] = [];

beforeAll(async () => {
  mkdirSync(DIR, { recursive: true });
  shop = await startMerchantSite();
  service = await startService({ merchantName: 'Himalayan Tea House' });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await service?.close();
  await shop?.close();
});

afterEach(async () => {
  const opened = payers;
  payers = [];
  for (const payer of opened) await payer.context.close();
  expect(opened.flatMap((p) => p.problems)).toEqual([]);
  expect(await service.brokenLedgerInvariants()).toEqual([]);
});

let orders = 0;
function order(overrides: Record<string, unknown> = {}) {
  orders += 1;
  return {
    return_url: `${shop.origin}/orders/return?cart=7`,
    website_url: `${shop.origin}/`,
    amount: 123456,
    purchase_order_id: `order-${Date.now()}-${orders}`,
    purchase_order_name: 'Tea for the office',
    amount_breakdown: [
      { label: 'Tea', amount: 100000 },
      { label: 'Delivery', amount: 23456 },
    ],
    product_details: [
      { identity: 'tea-ilam', name: 'Ilam first flush', total_price: 80000, quantity: 2, unit_price: 40000 },
      { identity: 'tea-masala', name: 'Masala chai', total_price: 20000, quantity: 1, unit_price: 20000 },
    ],
    ...overrides,
  };
}

async function snap(page: Page, name: string): Promise<void> {
  // Nothing may stick out sideways: on a phone that means a page that scrolls left and right.
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `${name} is wider than the screen`).toBeLessThanOrEqual(0);
  await page.screenshot({ path: `${DIR}${name}.png`, fullPage: true });
}

for (const [device, viewport] of [
  ['phone', PHONE],
  ['desktop', DESKTOP],
] as const) {
  describe(`every portal page on a ${device} (${viewport.width}x${viewport.height})`, () => {
    const payer = async () => {
      const opened = await openPayer(browser, [service.origin, shop.origin], { viewport, isMobile: device === 'phone', hasTouch: device === 'phone' });
      payers.push(opened);
      return opened;
    };

    it('the wallet step, a wrong MPIN, the OTP step', async () => {
      const initiated = await service.initiate(order());
      const { page } = await payer();
      await page.goto(initiated.payment_url);
      await snap(page, `${device}-1-wallet`);

      await enterWallet(page, SANDBOX.mobile, '0000');
      await page.getByRole('alert').waitFor();
      await snap(page, `${device}-2-wrong-mpin`);

      await page.getByLabel('MPIN').fill(SANDBOX.mpin);
      await page.getByRole('button', { name: 'Pay', exact: true }).click();
      await page.getByLabel('OTP').waitFor();
      await snap(page, `${device}-3-otp`);

      await enterOtp(page, '000000');
      await page.getByRole('alert').waitFor();
      expect(await page.getByRole('alert').textContent()).toBe('Wrong OTP. 2 attempts left.');
      await snap(page, `${device}-4-wrong-otp`);

      await enterOtp(page, SANDBOX.otp);
      expect((await landOnMerchant(page, shop)).status).toBe('Completed');
      // Coming back to a paid link: the finished page, with the way back to the shop.
      await page.goto(initiated.payment_url);
      await page.getByRole('heading', { name: 'Payment finished' }).waitFor();
      await snap(page, `${device}-5-finished`);
    });

    it('a long order without breakdown, and an order name that is one long word', async () => {
      const initiated = await service.initiate(
        order({
          purchase_order_name: 'Annual subscription: Himalayan Java premium single-origin coffee beans, 12 deliveries',
          purchase_order_id: `INV-2025-000000000000000000000000000000-${Date.now()}`,
          amount: 999999999,
          amount_breakdown: undefined,
          product_details: undefined,
        }),
      );
      const { page } = await payer();
      await page.goto(initiated.payment_url);
      await snap(page, `${device}-6-long-order`);

      const word = await service.initiate(order({ purchase_order_name: 'X'.repeat(120) }));
      await page.goto(word.payment_url);
      await snap(page, `${device}-7-long-word`);
    });

    it('the already-paid page', async () => {
      const first = order();
      const a = await service.initiate(first);
      const b = await service.initiate(order({ purchase_order_id: first.purchase_order_id }));
      const { page } = await payer();
      await page.goto(a.payment_url);
      await enterWallet(page, SANDBOX.mobile, SANDBOX.mpin);
      await enterOtp(page, SANDBOX.otp);
      await landOnMerchant(page, shop);
      await page.goto(b.payment_url);
      await page.getByRole('heading', { name: 'Order already paid' }).waitFor();
      await snap(page, `${device}-8-already-paid`);
    });

    it('the not-found page', async () => {
      const { page } = await payer();
      await page.goto(`${service.origin}/pay/unknownpidx`);
      await page.getByRole('heading', { name: 'Payment not found' }).waitFor();
      await snap(page, `${device}-9-not-found`);
    });

    it('the expired page', async () => {
      const initiated = await service.initiate(order());
      const { page } = await payer();
      service.t.clock.advance(3601);
      try {
        await page.goto(initiated.payment_url);
        await page.getByRole('heading', { name: 'Payment link expired' }).waitFor();
        await snap(page, `${device}-10-expired`);
      } finally {
        // Back to the browser's time, so later pages show the time left as a payer would see it.
        service.t.clock.advance(-3601);
      }
    });
  });
}
