// Pictures of every portal page on a phone and on a desktop, saved to browser/screenshots/ (not
// committed) for a person to look at; and of every payer page in Nepali (the hosted page, a payment
// link's pages, the demo shop: `<device>-ne-…`). Each page is also checked for what a payer must see
// on it, and for content wider than the screen (sideways scrolling on a phone).
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureDemoMerchant } from '../src/demo/ensure-demo-merchant.js';
import { ne } from '../src/language/ne.js';
import { browserSuite, enterOtp, enterWallet, inNepali, landOnMerchant, onDevice, SANDBOX, SCREENS, screenshot as snap, TEA_FOR_THE_OFFICE } from './harness.js';

const suite = browserSuite({ merchantName: 'Himalayan Tea House' });

let orders = 0;
function order(overrides: Record<string, unknown> = {}) {
  orders += 1;
  return {
    return_url: `${suite.shop.origin}/orders/return?cart=7`,
    website_url: `${suite.shop.origin}/`,
    purchase_order_id: `order-${Date.now()}-${orders}`,
    ...TEA_FOR_THE_OFFICE,
    ...overrides,
  };
}

for (const [device, viewport] of SCREENS) {
  describe(`every portal page on a ${device} (${viewport.width}x${viewport.height})`, () => {
    const payer = () => suite.person(onDevice(device));

    it('the wallet step, a wrong MPIN, the OTP step', async () => {
      const initiated = await suite.service.initiate(order());
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
      expect((await landOnMerchant(page, suite.shop)).status).toBe('Completed');
      // Coming back to a paid link: the finished page, with the way back to the shop.
      await page.goto(initiated.payment_url);
      await page.getByRole('heading', { name: 'Payment finished' }).waitFor();
      await snap(page, `${device}-5-finished`);
    });

    it('a long order without breakdown, and an order name that is one long word', async () => {
      const initiated = await suite.service.initiate(
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

      const word = await suite.service.initiate(order({ purchase_order_name: 'X'.repeat(120) }));
      await page.goto(word.payment_url);
      await snap(page, `${device}-7-long-word`);
    });

    it('the already-paid page', async () => {
      const first = order();
      const a = await suite.service.initiate(first);
      const b = await suite.service.initiate(order({ purchase_order_id: first.purchase_order_id }));
      const { page } = await payer();
      await page.goto(a.payment_url);
      await enterWallet(page, SANDBOX.mobile, SANDBOX.mpin);
      await enterOtp(page, SANDBOX.otp);
      await landOnMerchant(page, suite.shop);
      await page.goto(b.payment_url);
      await page.getByRole('heading', { name: 'Order already paid' }).waitFor();
      await snap(page, `${device}-8-already-paid`);
    });

    it('the not-found page', async () => {
      const { page } = await payer();
      await page.goto(`${suite.service.origin}/pay/unknownpidx`);
      await page.getByRole('heading', { name: 'Payment not found' }).waitFor();
      await snap(page, `${device}-9-not-found`);
    });

    it('the expired page', async () => {
      const initiated = await suite.service.initiate(order());
      const { page } = await payer();
      suite.service.t.clock.advance(3601);
      try {
        await page.goto(initiated.payment_url);
        await page.getByRole('heading', { name: 'Payment expired' }).waitFor();
        await snap(page, `${device}-10-expired`);
      } finally {
        // Back to the browser's time, so later pages show the time left as a payer would see it.
        suite.service.t.clock.advance(-3601);
      }
    });
  });
}

beforeAll(async () => {
  await ensureDemoMerchant(suite.service.t.ctx, { storeIsEmpty: async () => true });
});

for (const [device, viewport] of SCREENS) {
  describe(`every payer page in Nepali on a ${device} (${viewport.width}x${viewport.height})`, () => {
    const payer = () => suite.person(inNepali(onDevice(device)));
    const ne_ = (name: string) => `${device}-ne-${name}`;

    it('the hosted page: each step, then finished, already paid, not found, expired', async () => {
      const first = order();
      const initiated = await suite.service.initiate(first);
      const { page } = await payer();
      await page.goto(initiated.payment_url);
      await page.getByText('रु. १,२३४.५६').first().waitFor();
      await snap(page, ne_('1-wallet'));
      await enterWallet(page, SANDBOX.mobile, '0000', ne);
      await page.getByRole('alert').waitFor();
      expect(await page.getByRole('alert').textContent()).toBe(`${ne.payerErrors.wrong_mpin} ${ne.payerErrors.attemptsLeft(4)}`);
      await snap(page, ne_('2-wrong-mpin'));
      await enterWallet(page, SANDBOX.mobile, SANDBOX.mpin, ne);
      await page.getByLabel(ne.checkout.otp).waitFor();
      await snap(page, ne_('3-otp'));
      await enterOtp(page, '000000', ne);
      await page.getByRole('alert').waitFor();
      await snap(page, ne_('4-wrong-otp'));
      await enterOtp(page, SANDBOX.otp, ne);
      await landOnMerchant(page, suite.shop);
      await page.goto(initiated.payment_url);
      await page.getByRole('heading', { name: ne.notices.finished.title }).waitFor();
      await snap(page, ne_('5-finished'));
      const again = await suite.service.initiate(order({ purchase_order_id: first.purchase_order_id }));
      await page.goto(again.payment_url);
      await page.getByRole('heading', { name: ne.notices.orderPaid.title }).waitFor();
      await snap(page, ne_('6-already-paid'));
      await page.goto(`${suite.service.origin}/pay/unknownpidx`);
      await page.getByRole('heading', { name: ne.notices.notFound.title }).waitFor();
      await snap(page, ne_('7-not-found'));
      const expiring = await suite.service.initiate(order());
      suite.service.t.clock.advance(3601);
      try {
        await page.goto(expiring.payment_url);
        await page.getByRole('heading', { name: ne.notices.expired.title }).waitFor();
        await snap(page, ne_('8-expired'));
      } finally {
        suite.service.t.clock.advance(-3601);
      }
    });

    it('a payment link: its page, a refusal, the receipt, a link taking no payments', async () => {
      const { page } = await payer();
      await page.goto(await suite.service.createLink({ name: 'Tuition, Baisakh', description: 'Grade 10 maths and science.', min_amount: 100000, max_amount: 1500000, expires_on: '2099-12-31', ask: ['name', 'phone'] }));
      await snap(page, ne_('9-link'));
      await page.getByLabel(ne.link.amountLabel).fill('५००');
      await page.getByRole('button', { name: ne.link.continue }).click();
      await page.getByRole('alert').waitFor();
      await snap(page, ne_('10-link-refused'));
      await page.getByLabel(ne.link.amountLabel).fill('१,५००');
      await page.getByLabel(ne.link.nameLabel).fill('सीता शर्मा');
      await page.getByLabel(ne.link.phoneLabel).fill('९८४१२३४५६७');
      await page.getByRole('button', { name: ne.link.continue }).click();
      await enterWallet(page, SANDBOX.mobile, SANDBOX.mpin, ne);
      await enterOtp(page, SANDBOX.otp, ne);
      await page.getByRole('heading', { name: ne.receipt.Completed.title }).waitFor();
      await snap(page, ne_('11-link-receipt'));
      const soon = await suite.service.createLink({ name: 'Momo platter', amount: 45000, expires_on: new Date(suite.service.t.clock.now().getTime() + 60_000).toISOString() });
      suite.service.t.clock.advance(61);
      try {
        await page.goto(soon);
        await page.getByRole('heading', { name: ne.link.expired.title }).waitFor();
        await snap(page, ne_('12-link-expired'));
      } finally {
        suite.service.t.clock.advance(-61);
      }
    });

    it('the demo shop: the shop and an order paid', async () => {
      const { page } = await payer();
      await page.goto(`${suite.service.origin}/demo`);
      await page.getByRole('heading', { name: ne.demo.heading }).waitFor();
      await snap(page, ne_('13-demo-shop'));
      await page.getByRole('button', { name: `${ne.demo.buy} Ilam First Flush` }).click();
      await enterWallet(page, SANDBOX.mobile, SANDBOX.mpin, ne);
      await enterOtp(page, SANDBOX.otp, ne);
      await page.getByRole('heading', { name: ne.demo.outcomes.Completed.title }).waitFor();
      await snap(page, ne_('14-demo-paid'));
    });
  });
}
