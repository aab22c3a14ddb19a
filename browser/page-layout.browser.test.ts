// What people read, laid out as Chromium draws it on a phone (390 px) and a desktop: the counter
// card's business name never cut and the card off the screen's edges, the dashboard header's
// business name whole where there is room, the receipt's id and time never broken, the create-link
// form's choice and its error summary beside the fields, the QR page's amount whole and its buttons
// the page's own, and every Devanagari word on the payer's pages at 14 px at least.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureDemoMerchant } from '../src/demo/ensure-demo-merchant.js';
import { en, type Messages } from '../src/language/en.js';
import { ne } from '../src/language/ne.js';
import { esewaForm } from '../test/esewa-client.js';
import { newMerchant } from '../test/test-app.js';
import { browserSuite, enterOtp, enterWallet, inNepali, onDevice, PHONE, SANDBOX, signUpInBrowser, TEA_FOR_THE_OFFICE } from './harness.js';

const BUSINESS = 'Annapurna Tea House & Momo Corner';
const suite = browserSuite({ merchantName: BUSINESS });
const WIDE = { width: 1366, height: 800 };

/** The lines a piece of the element's text is drawn on (1: it is never broken). */
function linesOf(page: Page, selector: string, piece: string): Promise<number> {
  return page.locator(selector).evaluate((element, piece) => {
    const node = [...element.childNodes].find((n) => n.nodeType === Node.TEXT_NODE && n.textContent!.includes(piece))!;
    const range = document.createRange();
    const start = node.textContent!.indexOf(piece);
    range.setStart(node, start);
    range.setEnd(node, start + piece.length);
    return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
  }, piece);
}

/** Each visible piece of Devanagari text smaller than 14 px, with its size. */
function smallDevanagari(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const small: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!/[\u0900-\u097f]/.test(node.textContent!)) continue;
      const element = node.parentElement!;
      if (element.closest('details:not([open]) > :not(summary)') || element.getClientRects().length === 0) continue;
      const size = parseFloat(getComputedStyle(element).fontSize);
      if (size < 14) small.push(`${size}px <${element.tagName.toLowerCase()} class="${element.className}">${node.textContent!.trim()}`);
    }
    return small;
  });
}

describe('the merchant’s pages', () => {
  let merchant: Page;
  beforeAll(async () => {
    merchant = (await suite.resident({ viewport: WIDE })).page;
    await signUpInBrowser(merchant, suite.service.origin, { name: BUSINESS, email: `annapurna-${Date.now()}@example.com`, password: 'a long momo secret' });
    // Links in the list, so that the create form sits far down the page.
    for (const name of ['Momo platter', 'Tuition, Baisakh', 'Chiya, a cup']) {
      await merchant.goto(`${suite.service.origin}/dashboard/links`);
      await merchant.getByLabel('What is it for').fill(name);
      await merchant.getByLabel('Fixed amount in rupees').fill('1,23,456.50');
      await merchant.getByRole('button', { name: 'Create link' }).click();
      await merchant.getByText('Payment link created.').waitFor();
    }
  });

  it('the counter card: the business’s name whole under the code, the card off the edges of a phone', async () => {
    await merchant.setViewportSize(PHONE);
    await merchant.getByRole('link', { name: 'Print for the counter' }).click();
    await merchant.getByText('Scan to pay').first().waitFor();
    const card = (await merchant.locator('.counter-card').boundingBox())!;
    expect(card.x).toBeGreaterThanOrEqual(8);
    expect(card.x + card.width).toBeLessThanOrEqual(PHONE.width - 8);
    expect(await linesOf(merchant, '.card-amount', 'Rs.\u00a01,23,456.50')).toBe(1);

    // The SVG as Chromium draws it: every line of the name within the picture.
    await merchant.goto((await merchant.locator('.card-qr').evaluate((img: HTMLImageElement) => img.src))!);
    const drawn = await merchant.evaluate(() => {
      const svg = document.querySelector('svg')!;
      const width = svg.viewBox.baseVal.width;
      return [...document.querySelectorAll('text')].map((text) => {
        const box = text.getBBox();
        return { text: text.textContent, inside: box.x >= 0 && box.x + box.width <= width };
      });
    });
    expect(drawn.map((d) => d.text).join(' ')).toBe(BUSINESS);
    expect(drawn.filter((d) => !d.inside)).toEqual([]);
    await merchant.setViewportSize(WIDE);
  });

  it('the header at 1366 px: the business’s name whole, beside the navigation', async () => {
    await merchant.goto(`${suite.service.origin}/dashboard`);
    const name = merchant.locator('header.top .merchant-name');
    expect(await name.textContent()).toBe(BUSINESS);
    expect(await name.evaluate((element) => element.scrollWidth - element.clientWidth)).toBeLessThanOrEqual(0);
    expect(await merchant.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
  });

  it('the create-link form: each amount’s fields under its choice; refused on a phone, its summary beside the fields', async () => {
    await merchant.goto(`${suite.service.origin}/dashboard/links`);
    const top = async (label: string) => (await merchant.getByLabel(label, { exact: true }).boundingBox())!.y;
    expect(await top('A fixed amount')).toBeLessThan(await top('Fixed amount in rupees'));
    expect(await top('Fixed amount in rupees')).toBeLessThan(await top('The payer chooses, between a least and a most'));
    await merchant.getByLabel('The payer chooses, between a least and a most').check();
    expect(await merchant.getByLabel('Fixed amount in rupees').isVisible()).toBe(false);
    expect(await top('Least in rupees')).toBeGreaterThan(await top('The payer chooses, between a least and a most'));
    expect(await top('Least in rupees')).toBe(await top('Most in rupees'));

    await merchant.setViewportSize(PHONE);
    await merchant.getByRole('button', { name: 'Create link' }).click();
    const summary = merchant.getByRole('alert');
    await summary.waitFor();
    const said = (await summary.boundingBox())!;
    const field = (await merchant.locator('input[aria-invalid=true]').first().boundingBox())!;
    expect(said.y + said.height).toBeLessThan(PHONE.height);
    expect(field.y - (said.y + said.height)).toBeLessThan(300);
    expect(await summary.textContent()).not.toContain('This field');
    await merchant.setViewportSize(WIDE);
  });
});

describe('the payer’s pages', () => {
  let esewaPair: { product_code: string; secret_key: string };
  beforeAll(async () => {
    esewaPair = (await newMerchant(suite.service.t.ctx, { name: 'Kathmandu Books' })).esewa.test;
    await ensureDemoMerchant(suite.service.t.ctx, { storeIsEmpty: async () => true });
  });

  it('the receipt on a phone: the transaction id and the time never broken', async () => {
    const { page } = await suite.person(onDevice('phone'));
    await page.goto(await suite.service.createLink({ name: 'Tuition, Baisakh', amount: 12_345_650 }));
    await page.getByRole('button', { name: 'Continue to payment' }).click();
    await enterWallet(page, SANDBOX.mobile, SANDBOX.mpin);
    await enterOtp(page, SANDBOX.otp);
    await page.getByRole('heading', { name: 'Payment complete' }).waitFor();
    const id = (await page.getByTestId('transaction-id').textContent())!;
    expect(await linesOf(page, '[data-testid=transaction-id]', id)).toBe(1);
    const date = (await page.locator('.receipt div:last-child dd').textContent())!;
    const time = /\d{1,2}:\d{2}\u00a0[ap]m$/.exec(date)![0];
    expect(await linesOf(page, '.receipt div:last-child dd', time)).toBe(1);
  });

  describe.each([
    ['English', en, {}],
    ['Nepali', ne, inNepali()],
  ] as [string, Messages, object][])('the Fonepay QR page in %s', (_language, t, locale) => {
    it.each([
      ['a phone', onDevice('phone')],
      ['a 1366 px desktop', { ...onDevice('desktop'), viewport: WIDE }],
    ])('on %s: the amount whole, Devanagari at 14 px or more, another way a button, not paid yet apart from the wait', async (_screen, device) => {
      const { page } = await suite.person({ ...device, ...locale });
      const initiated = await suite.service.initiate({ return_url: `${suite.shop.origin}/r`, website_url: `${suite.shop.origin}/`, purchase_order_id: `qr-${Date.now()}`, ...TEA_FOR_THE_OFFICE });
      await page.goto(initiated.payment_url);
      await page.getByRole('button', { name: 'Fonepay QR', exact: true }).click();
      await page.getByRole('heading', { name: t.qrWay.title('Fonepay QR') }).waitFor();
      const amount = t === ne ? 'रु.\u00a0१,२३४.५६' : 'Rs.\u00a01,234.56';
      expect(await linesOf(page, '.qr-amount', amount)).toBe(1);
      expect(await linesOf(page, '.qr-steps li:nth-child(3)', amount)).toBe(1);
      expect(await smallDevanagari(page)).toEqual([]);

      // Another way to pay looks like the page's other buttons, visited or not (the hosted page was just visited).
      const otherWay = page.getByRole('link', { name: t.qrWay.otherWay });
      const look = await otherWay.evaluate((a) => {
        const style = getComputedStyle(a);
        return { color: style.color, decoration: style.textDecorationLine, border: style.borderTopStyle, width: a.getBoundingClientRect().width };
      });
      expect(look.color).not.toMatch(/^rgb\((0, 0, 238|85, 26, 139)\)$/);
      expect(look).toMatchObject({ decoration: 'none', border: 'solid' });
      expect(look.width).toBe((await page.getByRole('button', { name: t.qrWay.ask }).boundingBox())!.width);

      await page.getByRole('button', { name: t.qrWay.ask }).click();
      const notYet = page.locator('.qr-not-yet');
      await notYet.waitFor();
      expect(await notYet.textContent()).toBe(t.qrWay.notYet);
      const background = (selector: string) => page.locator(selector).evaluate((element) => getComputedStyle(element).backgroundColor);
      expect(await background('.qr-wait')).toBe('rgba(0, 0, 0, 0)');
      expect(await background('.qr-not-yet')).not.toBe('rgba(0, 0, 0, 0)');
      expect(await smallDevanagari(page)).toEqual([]);
    });
  });

  it('in Nepali on a phone, no Devanagari under 14 px: the hosted page, eSewa’s, a link’s page and receipt, the demo shop', async () => {
    const { page } = await suite.person(inNepali(onDevice('phone')));
    const small: string[] = [];
    const look = async (what: string) => small.push(...(await smallDevanagari(page)).map((s) => `${what}: ${s}`));

    const initiated = await suite.service.initiate({ return_url: `${suite.shop.origin}/r`, website_url: `${suite.shop.origin}/`, purchase_order_id: `o-${Date.now()}`, ...TEA_FOR_THE_OFFICE });
    await page.goto(initiated.payment_url);
    await look('the hosted page');

    const fields = esewaForm(esewaPair, { success_url: `${suite.shop.origin}/ok`, failure_url: `${suite.shop.origin}/no` });
    await page.setContent(`<form method="post" action="${suite.service.origin}/api/epay/main/v2/form">${Object.entries(fields).map(([n, v]) => `<input type="hidden" name="${n}" value="${v}">`).join('')}</form>`);
    await page.locator('form').evaluate((form: HTMLFormElement) => form.submit());
    await page.waitForURL((url) => url.pathname === '/pay/');
    await page.getByText('रु. ११०.००').first().waitFor();
    await look('eSewa’s form’s hosted page');

    await page.goto(await suite.service.createLink({ name: 'Tuition', min_amount: 100_000, max_amount: 1_500_000, expires_on: '2099-12-31', ask: ['name'] }));
    await page.getByRole('button', { name: ne.link.continue }).click();
    await page.getByRole('alert').waitFor();
    await look('a link’s page, refused');
    await page.getByLabel(ne.link.amountLabel).fill('१,५००');
    await page.getByLabel(ne.link.nameLabel).fill('सीता शर्मा');
    await page.getByRole('button', { name: ne.link.continue }).click();
    await enterWallet(page, SANDBOX.mobile, SANDBOX.mpin, ne);
    await enterOtp(page, SANDBOX.otp, ne);
    await page.getByRole('heading', { name: ne.receipt.Completed.title }).waitFor();
    await look('a link’s receipt');

    await page.goto(`${suite.service.origin}/demo`);
    await page.getByRole('heading', { name: ne.demo.heading }).waitFor();
    await look('the demo shop');
    expect(small).toEqual([]);
  });
});
