// The demo shop in headless Chromium, as a newcomer uses it in the first minute: open /demo, buy a
// tea, pay with the sandbox wallet, see "Order paid". Screenshots of each page on a phone and on a
// desktop go to browser/screenshots/ (not committed) for a person to look at.
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureDemoMerchant } from '../src/demo/ensure-demo-merchant.js';
import { startTestApp, type TestApp } from '../test/test-app.js';
import { DESKTOP, enterOtp, enterWallet, freePort, launchChromium, openPayer, PHONE, SANDBOX, type Payer } from './harness.js';

const DIR = fileURLToPath(new URL('./screenshots/', import.meta.url));

let t: TestApp;
let origin: string;
let browser: Browser;
let payers: Payer[] = [];

beforeAll(async () => {
  mkdirSync(DIR, { recursive: true });
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  t = await startTestApp({ config: { publicUrl: origin } });
  await t.app.listen({ port, host: '127.0.0.1' });
  // As `npm start` does on an empty store (the test database may already hold other merchants).
  await ensureDemoMerchant(t.ctx, { storeIsEmpty: async () => true });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

afterEach(async () => {
  const opened = payers;
  payers = [];
  for (const payer of opened) await payer.context.close();
  expect(opened.flatMap((p) => p.problems)).toEqual([]);
  expect(opened.flatMap((p) => p.dialogs)).toEqual([]);
});

async function snap(page: Page, name: string): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `${name} is wider than the screen`).toBeLessThanOrEqual(0);
  await page.screenshot({ path: `${DIR}${name}.png`, fullPage: true });
}

for (const [device, viewport] of [
  ['phone', PHONE],
  ['desktop', DESKTOP],
] as const) {
  describe(`the demo shop on a ${device} (${viewport.width}x${viewport.height})`, () => {
    const shopper = async () => {
      const opened = await openPayer(browser, [origin], { viewport, isMobile: device === 'phone', hasTouch: device === 'phone' });
      payers.push(opened);
      return opened;
    };

    it('buy a tea, pay with the sandbox wallet, see "Order paid"', async () => {
      const { page } = await shopper();
      await page.goto(`${origin}/demo`);
      await page.getByRole('heading', { name: 'Fresh tea, paid through Bhuktani' }).waitFor();
      await snap(page, `${device}-demo-1-shop`);

      await page.getByRole('button', { name: 'Buy Ilam First Flush' }).click();
      await page.waitForURL((url) => url.pathname.startsWith('/pay/'));
      await page.getByText('TEST MODE').waitFor();
      expect(await page.getByTestId('amount').textContent()).toBe('Rs. 750.00');
      await snap(page, `${device}-demo-2-pay`);

      await enterWallet(page, SANDBOX.mobile, SANDBOX.mpin);
      await enterOtp(page, SANDBOX.otp);
      await page.waitForURL((url) => url.pathname === '/demo/return');
      await page.getByRole('heading', { name: 'Order paid' }).waitFor();
      expect(await page.getByTestId('status').textContent()).toBe('Completed');
      expect(await page.getByTestId('transaction-id').textContent()).toMatch(/\S/);
      await snap(page, `${device}-demo-3-paid`);

      await page.getByRole('link', { name: 'Back to the shop' }).click();
      await page.getByRole('button', { name: 'Buy Himalayan Golden Tips' }).click();
      await page.getByRole('button', { name: 'Cancel', exact: true }).click();
      await page.getByRole('heading', { name: 'Payment canceled' }).waitFor();
      await snap(page, `${device}-demo-4-canceled`);
    });
  });
}
