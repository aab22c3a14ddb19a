// The demo shop in headless Chromium, as a newcomer uses it in the first minute: open /demo, buy a
// tea, pay with the sandbox wallet, see "Order paid". Screenshots of each page on a phone and on a
// desktop go to browser/screenshots/ (not committed) for a person to look at.
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureDemoMerchant } from '../src/demo/ensure-demo-merchant.js';
import { browserSuite, enterOtp, enterWallet, onDevice, SANDBOX, SCREENS, screenshot as snap } from './harness.js';

const suite = browserSuite({ merchantName: 'Harness merchant (unused)', shop: false });
// After the suite's beforeAll: as `npm start` does on an empty store (the test database may already hold other merchants).
beforeAll(() => ensureDemoMerchant(suite.service.t.ctx, { storeIsEmpty: async () => true }));

for (const [device, viewport] of SCREENS) {
  describe(`the demo shop on a ${device} (${viewport.width}x${viewport.height})`, () => {
    const shopper = () => suite.person(onDevice(device));

    it('buy a tea, pay with the sandbox wallet, see "Order paid"', async () => {
      const { page } = await shopper();
      await page.goto(`${suite.service.origin}/demo`);
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
