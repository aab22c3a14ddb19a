// Every kind of page the service shows, checked with axe-core against WCAG 2.1 A and AA, at a
// desktop width and then at a phone width (a code block may only overflow, and need to be
// reachable by keyboard, on a narrow screen). One server and one browser for all of them.
//
// To add a page kind, add one line to PAGES: a name, who looks at it (`as`), and how a person gets
// there (`open`). `visit('/path')` is enough for a page that needs no steps; `open` may click
// through forms as the other browser tests do. A page behind a new kind of sign-in (the operator
// console, say) first needs its role in ROLES: a function that opens a browser context signed in as
// that person.
//
// axe is evaluated in the page through the DevTools protocol, which the pages' CSP (no inline
// scripts) does not govern, so the pages are checked with their real headers.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type axe from 'axe-core';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureDemoMerchant } from '../src/demo/ensure-demo-merchant.js';
import {
  DESKTOP,
  enterOtp,
  enterWallet,
  landOnMerchant,
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

const WCAG_21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
/** The minified build: less to send and parse on every page than `axe.source`. */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
/** Rules beyond those tags: all content inside a landmark (axe files it under best practice). */
const ALSO = ['region'];

let service: Service;
let shop: MerchantSite;
let browser: Browser;
/** The merchant signed in to the dashboard, with the test key its shop initiates with. */
let merchant: { payer: Payer; testKey: string; paidPidx: string };
let contexts: Payer[] = [];

const MERCHANT = { name: 'Himalayan Tea House', email: `a11y-${Date.now()}@example.com`, password: 'a long tea secret' };

/** Who looks at a page: each role gives a page in a browser context of its own kind. */
const ROLES = {
  /** Nobody signed in: a fresh context (own cookies) for each page kind. */
  visitor: async () => {
    const payer = await openPayer(browser, [service.origin, shop.origin], { viewport: DESKTOP });
    contexts.push(payer);
    return payer.page;
  },
  /** The merchant signed in to the dashboard: a new tab in one shared context. */
  merchant: () => merchant.payer.newTab(),
};

interface PageKind {
  name: string;
  as: keyof typeof ROLES;
  /** Brings the page to what is checked, as a person would get there. */
  open(page: Page): Promise<unknown>;
}

const visit = (path: string) => (page: Page) => page.goto(`${service.origin}${path}`);

let orders = 0;
function order(overrides: Record<string, unknown> = {}) {
  orders += 1;
  return {
    return_url: `${shop.origin}/orders/return`,
    website_url: `${shop.origin}/`,
    amount: 123456,
    purchase_order_id: `a11y-${Date.now()}-${orders}`,
    purchase_order_name: 'Tea for the office',
    customer_info: { name: 'Sita Sharma', email: 'sita@example.com', phone: '9812345678' },
    amount_breakdown: [
      { label: 'Tea', amount: 100000 },
      { label: 'Delivery', amount: 23456 },
    ],
    product_details: [{ identity: 'tea-ilam', name: 'Ilam first flush', total_price: 100000, quantity: 2, unit_price: 50000 }],
    ...overrides,
  };
}

/** The shop's server initiates with `key` (the harness merchant's unless given): the payment_url. */
const initiate = async (body = order(), key?: string) => (await service.initiate(body, key)).payment_url;

/** A payer pays `paymentUrl` with the sandbox wallet and lands back on the shop. */
async function pay(page: Page, paymentUrl: string) {
  await page.goto(paymentUrl);
  await enterWallet(page, SANDBOX.mobile, SANDBOX.mpin);
  await enterOtp(page, SANDBOX.otp);
  return landOnMerchant(page, shop);
}

async function logIn(page: Page) {
  await page.goto(`${service.origin}/dashboard/login`);
  await page.getByLabel('Email').fill(MERCHANT.email);
  await page.getByLabel('Password').fill(MERCHANT.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL(`${service.origin}/dashboard`);
}

const PAGES: PageKind[] = [
  // The hosted page: each step, each notice.
  { name: 'portal: mobile and MPIN, TEST MODE banner', as: 'visitor', open: async (page) => page.goto(await initiate()) },
  {
    name: 'portal: wrong MPIN',
    as: 'visitor',
    open: async (page) => {
      await page.goto(await initiate());
      await enterWallet(page, SANDBOX.mobile, '0000');
      await page.getByRole('alert').waitFor();
    },
  },
  {
    name: 'portal: OTP',
    as: 'visitor',
    open: async (page) => {
      await page.goto(await initiate());
      await enterWallet(page, SANDBOX.mobile, SANDBOX.mpin);
      await page.getByLabel('OTP').waitFor();
    },
  },
  {
    name: 'portal: wrong OTP',
    as: 'visitor',
    open: async (page) => {
      await page.goto(await initiate());
      await enterWallet(page, SANDBOX.mobile, SANDBOX.mpin);
      await enterOtp(page, '000000');
      await page.getByRole('alert').waitFor();
    },
  },
  {
    name: 'portal: paid',
    as: 'visitor',
    open: async (page) => {
      const url = await initiate();
      await pay(page, url);
      await page.goto(url);
      await page.getByRole('heading', { name: 'Payment finished' }).waitFor();
    },
  },
  {
    name: 'portal: canceled',
    as: 'visitor',
    open: async (page) => {
      const url = await initiate();
      await page.goto(url);
      await page.getByRole('button', { name: 'Cancel', exact: true }).click();
      await landOnMerchant(page, shop);
      await page.goto(url);
      await page.getByText('This payment was canceled.').waitFor();
    },
  },
  {
    name: 'portal: link expired',
    as: 'visitor',
    open: async (page) => {
      const url = await initiate();
      service.t.clock.advance(3601);
      try {
        await page.goto(url);
      } finally {
        service.t.clock.advance(-3601);
      }
      await page.getByRole('heading', { name: 'Payment link expired' }).waitFor();
    },
  },
  {
    name: 'portal: order already paid',
    as: 'visitor',
    open: async (page) => {
      const first = order();
      const a = await initiate(first);
      const b = await initiate(order({ purchase_order_id: first.purchase_order_id }));
      await pay(page, a);
      await page.goto(b);
      await page.getByRole('heading', { name: 'Order already paid' }).waitFor();
    },
  },
  { name: 'portal: payment not found', as: 'visitor', open: visit('/pay/unknownpidx') },
  {
    name: 'portal: form expired',
    as: 'visitor',
    open: async (page) => {
      await page.goto(await initiate());
      await page.context().clearCookies();
      await enterWallet(page, SANDBOX.mobile, SANDBOX.mpin);
      await page.getByRole('heading', { name: 'Form expired' }).waitFor();
    },
  },

  // The dashboard: signed out, then signed in.
  { name: 'dashboard: log in', as: 'visitor', open: visit('/dashboard/login') },
  {
    name: 'dashboard: log in, wrong password',
    as: 'visitor',
    open: async (page) => {
      await page.goto(`${service.origin}/dashboard/login`);
      await page.getByLabel('Email').fill(MERCHANT.email);
      await page.getByLabel('Password').fill('not the password');
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.getByRole('alert').waitFor();
    },
  },
  { name: 'dashboard: sign up', as: 'visitor', open: visit('/dashboard/signup') },
  {
    name: 'dashboard: sign up, fields missing',
    as: 'visitor',
    open: async (page) => {
      await page.goto(`${service.origin}/dashboard/signup`);
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.getByLabel('Business name').and(page.locator('[aria-invalid="true"]')).waitFor();
    },
  },
  {
    name: 'dashboard: welcome, the keys shown once',
    as: 'visitor',
    open: async (page) => {
      await page.goto(`${service.origin}/dashboard/signup`);
      await page.getByLabel('Business name').fill('Everest Momo Co.');
      await page.getByLabel('Email').fill(`momo-${Date.now()}@example.com`);
      await page.getByLabel('Password').fill('momo momo momo');
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.getByRole('heading', { name: 'Welcome, Everest Momo Co.' }).waitFor();
    },
  },
  { name: 'dashboard: home', as: 'merchant', open: visit('/dashboard') },
  { name: 'dashboard: transactions', as: 'merchant', open: visit('/dashboard/transactions') },
  {
    name: 'dashboard: live data, no transactions',
    as: 'visitor',
    open: async (page) => {
      await logIn(page);
      await page.getByRole('button', { name: 'Switch to live data' }).click();
      await page.goto(`${service.origin}/dashboard/transactions`);
      await page.getByText('No transactions found.').waitFor();
    },
  },
  { name: 'dashboard: one payment', as: 'merchant', open: (page) => page.goto(`${service.origin}/dashboard/payments/${merchant.paidPidx}`) },
  {
    name: 'dashboard: refund, amount too large',
    as: 'merchant',
    open: async (page) => {
      await page.goto(`${service.origin}/dashboard/payments/${merchant.paidPidx}`);
      await page.getByLabel('Amount to refund, in rupees (Rs.)').fill('100000');
      await page.getByRole('button', { name: 'Review refund' }).click();
      await page.getByRole('alert').waitFor();
    },
  },
  {
    name: 'dashboard: refund, confirm',
    as: 'merchant',
    open: async (page) => {
      await page.goto(`${service.origin}/dashboard/payments/${merchant.paidPidx}`);
      await page.getByLabel('Amount to refund, in rupees (Rs.)').fill('10');
      await page.getByRole('button', { name: 'Review refund' }).click();
      await page.getByRole('button', { name: 'Confirm refund' }).waitFor();
    },
  },
  {
    name: 'dashboard: payment partly refunded',
    as: 'merchant',
    open: async (page) => {
      const url = await initiate(order(), merchant.testKey);
      const { pidx } = await pay(await ROLES.visitor(), url);
      await page.goto(`${service.origin}/dashboard/payments/${pidx}`);
      await page.getByLabel('Amount to refund, in rupees (Rs.)').fill('10');
      await page.getByRole('button', { name: 'Review refund' }).click();
      await page.getByRole('button', { name: 'Confirm refund' }).click();
      await page.waitForURL(/\?refund=/);
    },
  },
  { name: 'dashboard: API keys', as: 'merchant', open: visit('/dashboard/keys') },
  { name: 'dashboard: go live, the application form', as: 'merchant', open: visit('/dashboard/business') },
  {
    name: 'dashboard: go live, fields refused',
    as: 'merchant',
    open: async (page) => {
      await page.goto(`${service.origin}/dashboard/business`);
      await page.getByLabel('PAN / VAT number').fill('12345');
      await page.getByRole('button', { name: 'Apply to go live' }).click();
      await page.getByText('Enter the PAN or VAT number: 9 digits.').waitFor();
    },
  },
  {
    name: 'dashboard: rotate a key, confirm',
    as: 'merchant',
    open: async (page) => {
      await page.goto(`${service.origin}/dashboard/keys`);
      await page.getByLabel('Key', { exact: true }).selectOption('live');
      await page.getByRole('button', { name: 'Review rotation' }).click();
      await page.getByRole('heading', { name: 'Rotate the live secret key?' }).waitFor();
    },
  },
  {
    name: 'dashboard: rotated key, shown once',
    as: 'merchant',
    open: async (page) => {
      await page.goto(`${service.origin}/dashboard/keys`);
      await page.getByLabel('Key', { exact: true }).selectOption('live');
      await page.getByRole('button', { name: 'Review rotation' }).click();
      await page.getByRole('button', { name: /^Rotate key/ }).click();
      await page.getByLabel('Live secret key').waitFor();
    },
  },
  { name: 'dashboard: webhooks', as: 'merchant', open: visit('/dashboard/webhooks') },
  {
    name: 'dashboard: webhooks, endpoint refused',
    as: 'merchant',
    open: async (page) => {
      await page.goto(`${service.origin}/dashboard/webhooks`);
      await page.getByLabel('Endpoint URL').fill('ftp://example.com/hooks');
      await page.getByRole('button', { name: 'Save endpoint' }).click();
      await page.getByText('Enter a valid http(s) URL.').waitFor();
    },
  },
  { name: 'dashboard: page not found', as: 'merchant', open: visit('/dashboard/payments/not-a-payment') },

  // The API reference and the demo shop.
  { name: 'docs', as: 'visitor', open: visit('/docs') },
  { name: 'demo: the shop', as: 'visitor', open: visit('/demo') },
  {
    name: 'demo: order paid',
    as: 'visitor',
    open: async (page) => {
      await page.goto(`${service.origin}/demo`);
      await page.getByRole('button', { name: 'Buy Ilam First Flush' }).click();
      await enterWallet(page, SANDBOX.mobile, SANDBOX.mpin);
      await enterOtp(page, SANDBOX.otp);
      await page.getByRole('heading', { name: 'Order paid' }).waitFor();
    },
  },
  {
    name: 'demo: payment canceled',
    as: 'visitor',
    open: async (page) => {
      await page.goto(`${service.origin}/demo`);
      await page.getByRole('button', { name: 'Buy Himalayan Golden Tips' }).click();
      await page.getByRole('button', { name: 'Cancel', exact: true }).click();
      await page.getByRole('heading', { name: 'Payment canceled' }).waitFor();
    },
  },
  { name: 'demo: no order here', as: 'visitor', open: visit('/demo/return') },
  { name: 'demo: return not signed', as: 'visitor', open: visit('/demo/return?pidx=forged&status=Completed') },
];

interface Violation {
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

/** axe's violations on the page as it is now, in a form that crosses back from the browser. */
async function violations(page: Page): Promise<Violation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(
    async ({ tags, also }) => {
      const rules = Object.fromEntries(also.map((id) => [id, { enabled: true }]));
      const results = await (window as unknown as { axe: typeof axe }).axe.run(document, { runOnly: { type: 'tag', values: tags }, rules, resultTypes: ['violations'] });
      return results.violations.map((v) => ({ id: v.id, impact: v.impact ?? 'unknown', help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) }));
    },
    { tags: WCAG_21_AA, also: ALSO },
  );
}

/** One readable line per rule broken: rule, impact, what it asks, and where (up to 5 selectors). */
function report(found: Violation[], width: string): string[] {
  return found.map(({ id, impact, help, targets }) => {
    const shown = targets.slice(0, 5).join(', ') + (targets.length > 5 ? `, and ${targets.length - 5} more` : '');
    return `${id} (${impact}) at ${width}: ${help} — ${targets.length} element${targets.length === 1 ? '' : 's'}: ${shown}`;
  });
}

beforeAll(async () => {
  shop = await startMerchantSite();
  service = await startService({ merchantName: 'Harness merchant' });
  await ensureDemoMerchant(service.t.ctx, { storeIsEmpty: async () => true });
  browser = await launchChromium();

  // A merchant with a paid payment, signed in for the dashboard's pages.
  const payer = await openPayer(browser, [service.origin, shop.origin], { viewport: DESKTOP });
  await payer.page.goto(`${service.origin}/dashboard/signup`);
  await payer.page.getByLabel('Business name').fill(MERCHANT.name);
  await payer.page.getByLabel('Email').fill(MERCHANT.email);
  await payer.page.getByLabel('Password').fill(MERCHANT.password);
  await payer.page.getByRole('button', { name: 'Create account' }).click();
  const testKey = (await payer.page.getByLabel('Test secret key').textContent())!.trim();
  const buyer = await ROLES.visitor();
  const { pidx } = await pay(buyer, await initiate(order(), testKey));
  await payer.page.close();
  merchant = { payer, testKey, paidPidx: pidx };
});

afterAll(async () => {
  await browser?.close();
  await service?.close();
  await shop?.close();
});

afterEach(async () => {
  const opened = contexts;
  contexts = [];
  for (const c of opened) await c.context.close();
  const problems = [...opened, merchant.payer].flatMap((c) => c.problems.splice(0));
  expect(problems).toEqual([]);
});

describe('WCAG 2.1 A and AA (axe-core) on every kind of page', () => {
  for (const kind of PAGES) {
    it(kind.name, async () => {
      const page = await ROLES[kind.as]();
      try {
        await kind.open(page);
        await page.waitForLoadState('load');
        const broken = report(await violations(page), 'desktop');
        await page.setViewportSize(PHONE);
        broken.push(...report(await violations(page), 'phone'));
        expect(broken, `${kind.name} (${page.url()})`).toEqual([]);
      } finally {
        await page.close();
      }
    });
  }
});
