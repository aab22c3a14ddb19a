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
// The pages shown while the database is away come from a second service on a database of its own
// that the test takes down (test/reliability/private-postgres.ts; never the shared server).
//
// axe is evaluated in the page through the DevTools protocol, which the pages' CSP (no inline
// scripts) does not govern, so the pages are checked with their real headers.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type axe from 'axe-core';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_ACTOR } from '../src/audit/audit-entry.js';
import { loadConfig } from '../src/config.js';
import { openDb } from '../src/db/open.js';
import { ensureDemoMerchant } from '../src/demo/ensure-demo-merchant.js';
import { rejectMerchant, suspendMerchant } from '../src/merchants/decide-merchant.js';
import { insertMerchantUser } from '../src/merchants/merchant-user-store.js';
import { requestSignUp } from '../src/merchants/sign-up.js';
import { inviteTeamMember } from '../src/people/merchant-team.js';
import { totpCode } from '../src/people/totp.js';
import { markPayout } from '../src/settlements/move-payout.js';
import { requestPayout } from '../src/settlements/request-payout.js';
import { invitationLinkFor, newOperator, type TestOperator } from '../test/console-client.js';
import { esewaForm } from '../test/esewa-client.js';
import { mailedLinkSoon } from '../test/dashboard-client.js';
import { merchantIn } from '../test/merchant-approval.js';
import { operatorWallet, payerBrowser, payWithLiveWallet } from '../test/portal-client.js';
import { openOutageDatabase, outageDatabaseKind, type OutageDatabase } from '../test/reliability/private-postgres.js';
import { newMerchant, startTestApp, type TestApp } from '../test/test-app.js';
import { en, type Messages } from '../src/language/en.js';
import type { Language } from '../src/language/languages.js';
import { ne } from '../src/language/ne.js';
import { browserSuite, DESKTOP, enterOtp, enterWallet, freePort, inNepali, landOnMerchant, PHONE, SANDBOX, signUpInBrowser, type Payer } from './harness.js';

const WCAG_21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
/** The minified build: less to send and parse on every page than `axe.source`. */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
/** Rules beyond those tags: all content inside a landmark (axe files it under best practice). */
const ALSO = ['region'];

/** The merchant signed in to the dashboard, with the test key its shop initiates with. */
let merchant: { payer: Payer; testKey: string; paidPidx: string };
/** The operator signed in to the console, and the payments and wallets its pages show. */
let operator: { payer: Payer; pendingPidx: string; walletIdx: string; applicantIdx: string };
/** The same service on a port of its own, its database taken down once it has started. */
let outage: { database: OutageDatabase; t: TestApp; origin: string } | undefined;
const outageKind = outageDatabaseKind();
let outageService: Promise<typeof outage>;

// The outage service's database takes a while to make: begun before the suite starts, awaited once
// the rest is set up (the last beforeAll below), and taken away after the suite has stopped.
beforeAll(() => {
  outageService = outageKind ? startOutageService() : Promise.resolve(undefined);
});
afterAll(async () => {
  await outage?.t.close();
  await outage?.t.db.close();
  await outage?.database.remove();
});
const suite = browserSuite({ merchantName: 'Harness merchant' });

const MERCHANT = { name: 'Himalayan Tea House', email: `a11y-${Date.now()}@example.com`, password: 'a long tea secret' };

/**
 * One tab per role (and language) that goes from page to page: a renderer that is already warm opens
 * a page and compiles axe in about a third of the time a new browser context takes (on the 2-core
 * machine, about a second less a page). Their problems are checked after every test (residents).
 */
const tabs = new Map<string, Page>();
async function tab(key: string, open: () => Promise<Page>): Promise<Page> {
  let page = tabs.get(key);
  if (!page || page.isClosed()) tabs.set(key, (page = await open()));
  await page.setViewportSize(DESKTOP);
  return page;
}

/** Who looks at a page: each role gives a page in a browser context of its own kind. */
const ROLES = {
  /** Nobody signed in: the context's cookies are cleared first, so the page is a new visitor's. */
  visitor: async (language: Language = 'en') => {
    const hosts = [...suite.hosts(), ...(outage ? [outage.origin] : [])];
    const page = await tab(`visitor ${language}`, async () => (await suite.resident({ viewport: DESKTOP, ...(language === 'ne' ? inNepali() : {}) }, hosts)).page);
    await page.context().clearCookies();
    return page;
  },
  /** The merchant signed in to the dashboard. */
  merchant: () => tab('merchant', () => merchant.payer.newTab()),
  /** An admin signed in to the operator console (password and TOTP). */
  operator: () => tab('operator', () => operator.payer.newTab()),
};

interface PageKind {
  name: string;
  as: keyof typeof ROLES;
  /** Brings the page to what is checked, as a person would get there (`t`: the words of the page's language). */
  open(page: Page, t: Messages): Promise<unknown>;
  /** A page payers see: checked in English and in Nepali (contract section 14). */
  payer?: true;
  /** Shown by the service whose database is down (skipped where no PostgreSQL can be taken down). */
  outage?: true;
}

const visit = (path: string) => (page: Page, _t?: Messages) => page.goto(`${suite.service.origin}${path}`);

let orders = 0;
function order(overrides: Record<string, unknown> = {}) {
  orders += 1;
  return {
    return_url: `${suite.shop.origin}/orders/return`,
    website_url: `${suite.shop.origin}/`,
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

/** A merchant with eSewa's sandbox keys, made once. */
let esewaOne: ReturnType<typeof newMerchant> | undefined;
const esewaMerchant = () => (esewaOne ??= newMerchant(suite.service.t.ctx, { name: 'Kathmandu Books' }));

/** The shop's server initiates with `key` (the harness merchant's unless given): the payment_url. */
const initiate = async (body = order(), key?: string) => (await suite.service.initiate(body, key)).payment_url;

/** A payer pays `paymentUrl` with the sandbox wallet and lands back on the shop. */
async function pay(page: Page, paymentUrl: string, t: Messages = en) {
  await page.goto(paymentUrl);
  await enterWallet(page, SANDBOX.mobile, SANDBOX.mpin, t);
  await enterOtp(page, SANDBOX.otp, t);
  return landOnMerchant(page, suite.shop);
}

/** The dashboard's log-in form filled in and sent (by `who`, the test's merchant unless given, on `origin`). */
async function sendLogIn(page: Page, who: { email: string; password: string } = MERCHANT, origin = suite.service.origin) {
  await page.goto(`${origin}/dashboard/login`);
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

async function logIn(page: Page, who: { email: string; password: string } = MERCHANT) {
  await sendLogIn(page, who);
  await page.waitForURL(`${suite.service.origin}/dashboard`);
}

/** The console's first sign-in step: e-mail and password; the page then asks for the code. */
async function consolePassword(page: Page, who: TestOperator) {
  await page.goto(`${suite.service.origin}/console/login`);
  await page.getByLabel('E-mail').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Code').waitFor();
}

/** Both steps of the console's sign-in, as an operator does it with the code from the app. */
async function signInToConsole(page: Page, who: TestOperator) {
  await consolePassword(page, who);
  await page.getByLabel('Code').fill(totpCode(who.secret, suite.service.t.clock.now()));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Overview' }).waitFor();
}

/**
 * An admin invites a support operator from the Operators page; the invited person opens the e-mailed
 * link (written to the log) and goes on as far as `step`: the link's page, the app's enrolment, or the
 * recovery codes shown once.
 */
async function invited(page: Page, step: 'link' | 'enrol' | 'recovery codes') {
  const admin = await ROLES.operator();
  const email = `a11y-invited-${Date.now()}@example.com`;
  await admin.goto(`${suite.service.origin}/console/operators`);
  await admin.getByLabel('E-mail').fill(email);
  await admin.locator('form[action="/console/operators/invite"] select[name=role]').selectOption('support');
  await admin.getByRole('button', { name: 'Send invitation' }).click();
  await admin.getByText('Invitation sent').waitFor();
  await page.goto(`${suite.service.origin}${invitationLinkFor(suite.service.t.logs, email)}`);
  if (step === 'link') return;
  await page.getByLabel('Password', { exact: true }).fill('invited person password');
  await page.getByLabel('Password again').fill('invited person password');
  await page.getByRole('button', { name: 'Continue' }).click();
  const secret = (await page.locator('code.secret').getAttribute('data-secret'))!;
  if (step === 'enrol') return;
  await page.getByLabel('Code from the app').fill(totpCode(secret, suite.service.t.clock.now()));
  await page.getByRole('button', { name: 'Confirm' }).click();
  await page.locator('ol.recovery-codes').waitFor();
}

/** The hosted page's `Fonepay QR`, then the sandbox's bank app on that QR, as its link opens it. */
async function sandboxBankApp(page: Page) {
  await page.goto(await initiate());
  await page.getByRole('button', { name: 'Fonepay QR', exact: true }).click();
  await page.goto((await page.getByRole('link', { name: 'Pay this QR in the sandbox' }).getAttribute('href'))!);
  await page.getByRole('button', { name: 'Decline', exact: true }).waitFor();
}

/** Opens `path` while the server says OTP_SENDER=log-insecure (its warning on every page), as the expiry pages move the clock. */
const insecurelyConfigured = (path: string) => async (page: Page) => {
  const { config } = suite.service.t.ctx;
  const was = config.otpSender;
  config.otpSender = 'log-insecure';
  try {
    await page.goto(`${suite.service.origin}${path}`);
  } finally {
    config.otpSender = was;
  }
  await page.getByTestId('server-warning').waitFor();
};

/** A live payout of a new approved merchant's live payment, sent to the bank (Processing): its idx. */
async function processingLivePayout() {
  const { ctx, app, sentOtps } = suite.service.t;
  const approved = await merchantIn(ctx, 'approved');
  const payer = await operatorWallet(ctx, { balance: 200_000 });
  const { pidx } = await suite.service.initiate(order(), approved.live_secret_key);
  await payWithLiveWallet(payerBrowser(app), sentOtps, pidx, payer);
  const payout = await requestPayout(ctx, { merchantId: approved.merchant.id, environment: 'live', requestedBy: 'api' });
  await markPayout(ctx, { actor: CLI_ACTOR, idx: payout.idx, move: { name: 'process' } });
  return payout.idx;
}

/** A payment of a merchant approved for live payments and then suspended: its live payment_url. */
async function suspendedMerchantsLivePayment() {
  const approved = await merchantIn(suite.service.t.ctx, 'approved');
  const url = await initiate(order(), approved.live_secret_key);
  await suspendMerchant(suite.service.t.ctx, { actor: CLI_ACTOR, merchantIdx: approved.merchant.idx, reason: 'Chargebacks under review.' });
  return url;
}

const PAGES: PageKind[] = [
  // The hosted page: each step, each notice; in English and in Nepali.
  { name: 'portal: mobile and MPIN, TEST MODE banner', as: 'visitor', payer: true, open: async (page) => page.goto(await initiate()) },
  {
    name: 'portal: wrong MPIN',
    as: 'visitor',
    payer: true,
    open: async (page, t) => {
      await page.goto(await initiate());
      await enterWallet(page, SANDBOX.mobile, '0000', t);
      await page.getByRole('alert').waitFor();
    },
  },
  {
    name: 'portal: OTP',
    as: 'visitor',
    payer: true,
    open: async (page, t) => {
      await page.goto(await initiate());
      await enterWallet(page, SANDBOX.mobile, SANDBOX.mpin, t);
      await page.getByLabel(t.checkout.otp).waitFor();
    },
  },
  {
    name: 'portal: wrong OTP',
    as: 'visitor',
    payer: true,
    open: async (page, t) => {
      await page.goto(await initiate());
      await enterWallet(page, SANDBOX.mobile, SANDBOX.mpin, t);
      await enterOtp(page, '000000', t);
      await page.getByRole('alert').waitFor();
    },
  },
  {
    name: 'portal: paid',
    as: 'visitor',
    payer: true,
    open: async (page, t) => {
      const url = await initiate();
      await pay(page, url, t);
      await page.goto(url);
      await page.getByRole('heading', { name: t.notices.finished.title }).waitFor();
    },
  },
  {
    name: 'portal: canceled',
    as: 'visitor',
    payer: true,
    open: async (page, t) => {
      const url = await initiate();
      await page.goto(url);
      await page.getByRole('button', { name: t.checkout.cancel, exact: true }).click();
      await landOnMerchant(page, suite.shop);
      await page.goto(url);
      await page.getByText(t.notices.finished.canceled).waitFor();
    },
  },
  {
    name: 'portal: link expired',
    as: 'visitor',
    payer: true,
    open: async (page, t) => {
      const url = await initiate();
      suite.service.t.clock.advance(3601);
      try {
        await page.goto(url);
      } finally {
        suite.service.t.clock.advance(-3601);
      }
      await page.getByRole('heading', { name: t.notices.expired.title }).waitFor();
    },
  },
  {
    name: 'portal: order already paid',
    as: 'visitor',
    payer: true,
    open: async (page, t) => {
      const first = order();
      const a = await initiate(first);
      const b = await initiate(order({ purchase_order_id: first.purchase_order_id }));
      await pay(page, a, t);
      await page.goto(b);
      await page.getByRole('heading', { name: t.notices.orderPaid.title }).waitFor();
    },
  },
  { name: 'portal: payment not found', as: 'visitor', payer: true, open: visit('/pay/unknownpidx') },
  // Paying through a provider (issue 26): the sandbox's simulator of Khalti (the provider's own page,
  // in its own words), and back on the hosted page without paying, in the payer's language.
  {
    name: 'portal: a provider’s sandbox page (Khalti’s simulator)',
    as: 'visitor',
    open: async (page) => {
      await page.goto(await initiate());
      await page.getByRole('button', { name: 'Khalti', exact: true }).click();
      await page.getByRole('button', { name: 'Pay: pending, then paid' }).waitFor();
    },
  },
  // Fonepay's QR on the hosted page, in the payer's language; Fonepay's simulator has pages of its
  // own (its web checkout, and a bank app that pays a QR), in its own words.
  {
    name: 'portal: a provider’s QR (Fonepay QR)',
    as: 'visitor',
    payer: true,
    open: async (page, t) => {
      await page.goto(await initiate());
      await page.getByRole('button', { name: 'Fonepay QR', exact: true }).click();
      await page.getByRole('heading', { name: t.qrWay.title('Fonepay QR') }).waitFor();
    },
  },
  {
    name: 'portal: Fonepay’s sandbox checkout page (its simulator)',
    as: 'visitor',
    open: async (page) => {
      await page.goto(await initiate());
      await page.getByRole('button', { name: 'Fonepay', exact: true }).click();
      await page.getByRole('button', { name: 'Decline', exact: true }).waitFor();
    },
  },
  {
    name: 'portal: the sandbox’s bank app, paying a Fonepay QR',
    as: 'visitor',
    open: (page) => sandboxBankApp(page),
  },
  {
    name: 'portal: the sandbox’s bank app, paid',
    as: 'visitor',
    open: async (page) => {
      await sandboxBankApp(page);
      await page.getByRole('button', { name: 'Pay', exact: true }).click();
      await page.getByText('You paid').waitFor();
    },
  },
  {
    name: 'portal: back from a provider, not paid there',
    as: 'visitor',
    payer: true,
    open: async (page, t) => {
      await page.goto(await initiate());
      await page.getByRole('button', { name: 'eSewa', exact: true }).click();
      await page.getByRole('button', { name: 'Cancel', exact: true }).click();
      await page.getByText(t.providers.notPaidThere('eSewa')).waitFor();
    },
  },
  {
    name: 'portal: merchant may not take live payments',
    as: 'visitor',
    payer: true,
    open: async (page, t) => {
      await page.goto(await suspendedMerchantsLivePayment());
      await page.getByRole('heading', { name: t.notices.closedMerchant.title }).waitFor();
    },
  },
  {
    name: 'portal: briefly unavailable (database away)',
    as: 'visitor',
    payer: true,
    outage: true,
    open: async (page, t) => {
      const answer = await page.goto(`${outage!.origin}/pay/somepidx`);
      expect(answer?.status()).toBe(503);
      await page.getByRole('heading', { name: t.notices.outage.title }).waitFor();
    },
  },
  {
    name: 'portal: form expired',
    as: 'visitor',
    payer: true,
    open: async (page, t) => {
      await page.goto(await initiate());
      await page.context().clearCookies();
      await enterWallet(page, SANDBOX.mobile, SANDBOX.mpin, t);
      await page.getByRole('heading', { name: t.notices.formExpired.title }).waitFor();
    },
  },

  // A payment link's pages: the link, its refusals, a link that takes no payments, its receipt.
  {
    name: 'link: the page, with the details it asks',
    as: 'visitor',
    payer: true,
    open: async (page) => page.goto(await suite.service.createLink({ name: 'Momo platter', description: 'Ten momos.', amount: 45000, ask: ['name', 'phone', 'email'] })),
  },
  {
    name: 'link: the payer’s amount, refused',
    as: 'visitor',
    payer: true,
    open: async (page, t) => {
      await page.goto(await suite.service.createLink({ name: 'Tuition', min_amount: 100000, max_amount: 1500000, expires_on: '2099-12-31', ask: ['email'] }));
      await page.getByLabel(t.link.amountLabel).fill('5');
      await page.getByRole('button', { name: t.link.continue }).click();
      await page.getByRole('alert').waitFor();
    },
  },
  {
    name: 'link: taking no payments (410)',
    as: 'visitor',
    payer: true,
    open: async (page, t) => {
      const url = await suite.service.createLink({ name: 'Momo platter', amount: 45000, expires_on: new Date(suite.service.t.clock.now().getTime() + 60_000).toISOString() });
      suite.service.t.clock.advance(61);
      try {
        await page.goto(url);
      } finally {
        suite.service.t.clock.advance(-61);
      }
      await page.getByRole('heading', { name: t.link.expired.title }).waitFor();
    },
  },
  { name: 'link: not found', as: 'visitor', payer: true, open: visit('/l/NoSuchCode1') },
  {
    name: 'link: the receipt',
    as: 'visitor',
    payer: true,
    open: async (page, t) => {
      await page.goto(await suite.service.createLink({ name: 'Momo platter', amount: 45000 }));
      await page.getByRole('button', { name: t.link.continue }).click();
      await enterWallet(page, SANDBOX.mobile, SANDBOX.mpin, t);
      await enterOtp(page, SANDBOX.otp, t);
      await page.getByRole('heading', { name: t.receipt.Completed.title }).waitFor();
    },
  },
  // Paying through eSewa's form: its parts of the total, in the payer's language.
  {
    name: 'portal: a payment of eSewa’s form, its parts of the total',
    as: 'visitor',
    payer: true,
    open: async (page) => {
      const fields = esewaForm((await esewaMerchant()).esewa.test, { tax_amount: '10', product_delivery_charge: '5', total_amount: '115', success_url: `${suite.shop.origin}/ok`, failure_url: `${suite.shop.origin}/no` });
      await page.goto(`${suite.shop.origin}/checkout`);
      await page.setContent(`<form method="post" action="${suite.service.origin}/api/epay/main/v2/form">${Object.entries(fields).map(([n, v]) => `<input type="hidden" name="${n}" value="${v}">`).join('')}</form>`);
      await page.locator('form').evaluate((form: HTMLFormElement) => form.submit());
      await page.waitForURL((url) => url.origin === suite.service.origin && url.pathname === '/pay/');
    },
  },

  // The dashboard: signed out, then signed in.
  { name: 'dashboard: log in', as: 'visitor', open: visit('/dashboard/login') },
  {
    name: 'dashboard: log in, wrong password',
    as: 'visitor',
    open: async (page) => {
      await sendLogIn(page, { email: MERCHANT.email, password: 'not the password' });
      await page.getByRole('alert').waitFor();
    },
  },
  { name: 'dashboard: sign up', as: 'visitor', open: visit('/dashboard/signup') },
  {
    name: 'dashboard: sign up, fields missing',
    as: 'visitor',
    open: async (page) => {
      await page.goto(`${suite.service.origin}/dashboard/signup`);
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.getByLabel('Business name').and(page.locator('[aria-invalid="true"]')).waitFor();
    },
  },
  {
    name: 'dashboard: sign up, check your e-mail',
    as: 'visitor',
    open: async (page) => {
      await page.goto(`${suite.service.origin}/dashboard/signup`);
      await page.getByLabel('Business name').fill('Everest Momo Co.');
      await page.getByLabel('Email').fill(`momo-check-${Date.now()}@example.com`);
      await page.getByLabel('Password').fill('momo momo momo');
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();
    },
  },
  {
    name: 'dashboard: finishing a sign-up from its e-mail',
    as: 'visitor',
    open: async (page) => {
      const email = `momo-finish-${Date.now()}@example.com`;
      await requestSignUp(suite.service.t.ctx, { name: 'Everest Momo Co.', email, password: 'momo momo momo' }, () => undefined);
      await page.goto(`${suite.service.origin}${await mailedLinkSoon(email, 'signup')}`);
      await page.getByRole('heading', { name: 'Finish signing up' }).waitFor();
    },
  },
  {
    name: 'dashboard: welcome, the keys shown once',
    as: 'visitor',
    open: async (page) => {
      await signUpInBrowser(page, suite.service.origin, { name: 'Everest Momo Co.', email: `momo-${Date.now()}@example.com`, password: 'momo momo momo' });
      await page.getByRole('heading', { name: 'Welcome, Everest Momo Co.' }).waitFor();
    },
  },
  { name: 'dashboard: home', as: 'merchant', open: visit('/dashboard') },
  { name: 'dashboard: transactions', as: 'merchant', open: visit('/dashboard/transactions') },
  { name: 'dashboard: home, an insecure server setting said', as: 'merchant', open: insecurelyConfigured('/dashboard') },
  {
    name: 'dashboard: live data, no transactions',
    as: 'visitor',
    open: async (page) => {
      await logIn(page);
      await page.getByRole('button', { name: 'Switch to live data' }).click();
      await page.goto(`${suite.service.origin}/dashboard/transactions`);
      await page.getByText('No transactions found.').waitFor();
    },
  },
  { name: 'dashboard: one payment', as: 'merchant', open: (page) => page.goto(`${suite.service.origin}/dashboard/payments/${merchant.paidPidx}`) },
  {
    name: 'dashboard: refund, amount too large',
    as: 'merchant',
    open: async (page) => {
      await page.goto(`${suite.service.origin}/dashboard/payments/${merchant.paidPidx}`);
      await page.getByLabel('Amount to refund, in rupees (Rs.)').fill('100000');
      await page.getByRole('button', { name: 'Review refund' }).click();
      await page.getByRole('alert').waitFor();
    },
  },
  {
    name: 'dashboard: refund, confirm',
    as: 'merchant',
    open: async (page) => {
      await page.goto(`${suite.service.origin}/dashboard/payments/${merchant.paidPidx}`);
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
      await page.goto(`${suite.service.origin}/dashboard/payments/${pidx}`);
      await page.getByLabel('Amount to refund, in rupees (Rs.)').fill('10');
      await page.getByRole('button', { name: 'Review refund' }).click();
      await page.getByRole('button', { name: 'Confirm refund' }).click();
      await page.waitForURL(/\?refund=/);
    },
  },
  { name: 'dashboard: API keys', as: 'merchant', open: visit('/dashboard/keys') },
  { name: 'dashboard: security (password, two-factor, team)', as: 'merchant', open: visit('/dashboard/account') },
  { name: 'dashboard: your sessions', as: 'merchant', open: visit('/dashboard/account/sessions') },
  { name: 'dashboard: set up two-factor', as: 'merchant', open: visit('/dashboard/account/two-factor') },
  { name: 'dashboard: forgot password', as: 'visitor', open: visit('/dashboard/forgot-password') },
  { name: 'dashboard: go live, the application form', as: 'merchant', open: visit('/dashboard/business') },
  {
    name: 'dashboard: go live, fields refused',
    as: 'merchant',
    open: async (page) => {
      await page.goto(`${suite.service.origin}/dashboard/business`);
      await page.getByLabel('PAN / VAT number').fill('12345');
      await page.getByRole('button', { name: 'Apply to go live' }).click();
      await page.getByText('Enter the PAN or VAT number: 9 digits.').waitFor();
    },
  },
  {
    name: 'dashboard: go live, not approved with the reason, and the live-off banner',
    as: 'visitor',
    open: async (page) => {
      const rejected = await merchantIn(suite.service.t.ctx, 'applied');
      await rejectMerchant(suite.service.t.ctx, { actor: CLI_ACTOR, merchantIdx: rejected.merchant.idx, reason: 'The PAN does not match the legal name.' });
      await logIn(page, { email: rejected.merchant.email, password: 'correct horse battery' });
      await page.getByRole('button', { name: 'Switch to live data' }).click();
      await page.goto(`${suite.service.origin}/dashboard/business`);
      await page.getByText('The PAN does not match the legal name.').waitFor();
      await page.getByText('Live payments are off: your business was not approved.').waitFor();
    },
  },
  {
    name: 'dashboard: rotate a key, confirm',
    as: 'merchant',
    open: async (page) => {
      await page.goto(`${suite.service.origin}/dashboard/keys`);
      await page.getByLabel('Key', { exact: true }).selectOption('live');
      await page.getByRole('button', { name: 'Review rotation' }).click();
      await page.getByRole('heading', { name: 'Rotate the live secret key?' }).waitFor();
    },
  },
  {
    name: 'dashboard: rotated key, shown once',
    as: 'merchant',
    open: async (page) => {
      await page.goto(`${suite.service.origin}/dashboard/keys`);
      await page.getByLabel('Key', { exact: true }).selectOption('live');
      await page.getByRole('button', { name: 'Review rotation' }).click();
      await page.getByRole('button', { name: /^Rotate key/ }).click();
      await page.getByLabel('Live secret key').waitFor();
    },
  },
  {
    name: 'dashboard: rotate an eSewa key, confirm',
    as: 'merchant',
    open: async (page) => {
      await page.goto(`${suite.service.origin}/dashboard/keys`);
      await page.getByLabel('eSewa secret key').selectOption('test');
      await page.getByRole('button', { name: 'Review eSewa rotation' }).click();
      await page.getByRole('heading', { name: 'Rotate the test eSewa secret key?' }).waitFor();
    },
  },
  {
    name: 'dashboard: rotated eSewa key, shown once',
    as: 'merchant',
    open: async (page) => {
      await page.goto(`${suite.service.origin}/dashboard/keys`);
      await page.getByLabel('eSewa secret key').selectOption('test');
      await page.getByRole('button', { name: 'Review eSewa rotation' }).click();
      await page.getByRole('button', { name: /^Rotate eSewa key/ }).click();
      await page.getByLabel('Test eSewa secret key').waitFor();
    },
  },
  { name: 'dashboard: webhooks', as: 'merchant', open: visit('/dashboard/webhooks') },
  {
    name: 'dashboard: webhooks, endpoint refused',
    as: 'merchant',
    open: async (page) => {
      await page.goto(`${suite.service.origin}/dashboard/webhooks`);
      await page.getByLabel('Endpoint URL').fill('ftp://example.com/hooks');
      await page.getByRole('button', { name: 'Save endpoint' }).click();
      await page.getByText('Enter a valid http(s) URL.').waitFor();
    },
  },
  { name: 'dashboard: settlements', as: 'merchant', open: visit('/dashboard/settlements') },
  {
    name: 'dashboard: settlements, payout amount refused',
    as: 'merchant',
    open: async (page) => {
      await page.goto(`${suite.service.origin}/dashboard/settlements`);
      await page.getByLabel('An amount').check();
      await page.getByLabel('Amount in rupees').fill('99999999');
      await page.getByRole('button', { name: 'Request payout' }).click();
      await page.getByText('That is more than is available').waitFor();
    },
  },
  {
    name: 'dashboard: a payout statement',
    as: 'merchant',
    open: async (page) => {
      await page.goto(`${suite.service.origin}/dashboard/settlements`);
      await page.getByLabel('An amount').check();
      await page.getByLabel('Amount in rupees').fill('1');
      await page.getByRole('button', { name: 'Request payout' }).click();
      await page.getByText('Payout requested.').waitFor();
      await page.getByRole('link', { name: 'Statement' }).first().click();
      await page.getByText('Payout statement').waitFor();
    },
  },
  {
    name: 'dashboard: payment links, the create form refused',
    as: 'merchant',
    open: async (page) => {
      await page.goto(`${suite.service.origin}/dashboard/links`);
      await page.getByLabel('The payer chooses, between a least and a most').check();
      await page.getByRole('button', { name: 'Create link' }).click();
      await page.getByText('Check the fields marked below.').waitFor();
    },
  },
  {
    name: 'dashboard: one payment link',
    as: 'merchant',
    open: async (page) => {
      await page.goto(`${suite.service.origin}/dashboard/links`);
      await page.getByLabel('What is it for').fill('Tuition, Baisakh');
      await page.getByLabel('Fixed amount in rupees').fill('1,23,456.50');
      await page.getByLabel('Last day (optional)').fill('2099-12-27');
      await page.getByRole('button', { name: 'Create link' }).click();
      await page.getByText('Payment link created.').waitFor();
    },
  },
  {
    name: 'dashboard: a payment link’s counter card',
    as: 'merchant',
    open: async (page) => {
      await page.goto(`${suite.service.origin}/dashboard/links`);
      await page.getByRole('link', { name: 'Tuition, Baisakh' }).first().click();
      await page.getByRole('link', { name: 'Print for the counter' }).click();
      await page.getByText('Scan to pay').waitFor();
    },
  },
  { name: 'dashboard: team', as: 'merchant', open: visit('/dashboard/team') },
  {
    name: 'dashboard: joining a team from an invitation',
    as: 'visitor',
    open: async (page) => {
      const [owner] = await suite.service.t.db.query<{ id: number; merchant_id: number }>('SELECT u.id, u.merchant_id FROM merchant_users u JOIN merchant_people p ON p.id = u.person_id WHERE p.email = $1', [MERCHANT.email]);
      const email = `a11y-invited-${Date.now()}@example.com`;
      const actor = { userId: Number(owner.id), email: MERCHANT.email, merchantId: Number(owner.merchant_id), merchantName: MERCHANT.name };
      await inviteTeamMember(suite.service.t.ctx, { actor, email, role: 'developer' });
      await page.goto(`${suite.service.origin}${invitationLinkFor(suite.service.t.logs, email, 'dashboard')}`);
      await page.getByLabel('Choose a password').waitFor();
    },
  },
  {
    name: 'dashboard: joining a team with the account one has',
    as: 'visitor',
    open: async (page) => {
      const other = await newMerchant(suite.service.t.ctx, { name: 'Pokhara Paper Co.' });
      const actor = { userId: other.owner.id, email: other.owner.email, merchantId: other.merchant.id, merchantName: other.merchant.name };
      await inviteTeamMember(suite.service.t.ctx, { actor, email: MERCHANT.email, role: 'finance' });
      await page.goto(`${suite.service.origin}${invitationLinkFor(suite.service.t.logs, MERCHANT.email, 'dashboard')}`);
      await page.getByLabel('Your password').waitFor();
    },
  },
  {
    name: 'dashboard: home, the switcher of a person in two businesses',
    as: 'visitor',
    open: async (page) => {
      const first = await newMerchant(suite.service.t.ctx, { name: 'Lakeside Bakery' });
      const second = await newMerchant(suite.service.t.ctx, { name: 'Lakeside Bakery, the café' });
      await insertMerchantUser(suite.service.t.db, { merchantId: second.merchant.id, personId: first.owner.person_id, role: 'finance', now: suite.service.t.clock.now() });
      await logIn(page, { email: first.owner.email, password: 'correct horse battery' });
      await page.getByRole('combobox', { name: 'Business' }).waitFor();
    },
  },
  { name: 'dashboard: page not found', as: 'merchant', open: visit('/dashboard/payments/not-a-payment') },
  {
    name: 'dashboard: briefly unavailable (database away)',
    as: 'visitor',
    outage: true,
    open: async (page) => {
      await sendLogIn(page, MERCHANT, outage!.origin);
      await page.getByRole('heading', { name: 'Briefly unavailable' }).waitFor();
    },
  },

  // The operator console: its two sign-in steps, then each page an operator works in.
  { name: 'console: sign in', as: 'visitor', open: visit('/console/login') },
  {
    name: 'console: sign in, the code from the app',
    as: 'visitor',
    open: async (page) => consolePassword(page, await newOperator(suite.service.t.ctx, 'support')),
  },
  {
    name: 'console: sign in, code refused',
    as: 'visitor',
    open: async (page) => {
      await consolePassword(page, await newOperator(suite.service.t.ctx, 'support'));
      await page.getByLabel('Code').fill('000000');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.locator('.notice.error').waitFor();
    },
  },
  { name: 'console: an invitation, choosing a password', as: 'visitor', open: (page) => invited(page, 'link') },
  { name: 'console: enrolling the authenticator app', as: 'visitor', open: (page) => invited(page, 'enrol') },
  { name: 'console: recovery codes, shown once', as: 'visitor', open: (page) => invited(page, 'recovery codes') },
  { name: 'console: overview', as: 'operator', open: visit('/console') },
  { name: 'console: overview, an insecure server setting said', as: 'operator', open: insecurelyConfigured('/console') },
  { name: 'console: merchants', as: 'operator', open: visit('/console/merchants') },
  { name: 'console: one merchant, waiting for approval', as: 'operator', open: (page) => page.goto(`${suite.service.origin}/console/merchants/${operator.applicantIdx}`) },
  { name: 'console: payments, a search', as: 'operator', open: (page) => page.goto(`${suite.service.origin}/console/payments?q=${operator.pendingPidx}`) },
  {
    name: 'console: one Pending payment, the resolve form',
    as: 'operator',
    open: async (page) => {
      await page.goto(`${suite.service.origin}/console/payments/${operator.pendingPidx}`);
      await page.getByRole('button', { name: 'Resolve' }).waitFor();
    },
  },
  { name: 'console: payouts', as: 'operator', open: visit('/console/payouts') },
  { name: 'console: providers', as: 'operator', open: visit('/console/providers') },
  {
    name: 'console: one payout, the forms marking it Paid or Failed',
    as: 'operator',
    open: async (page) => {
      await page.goto(`${suite.service.origin}/console/payouts/${await processingLivePayout()}`);
      await page.getByRole('button', { name: 'Mark Paid' }).waitFor();
    },
  },
  { name: 'console: wallets', as: 'operator', open: visit('/console/wallets') },
  { name: 'console: one wallet', as: 'operator', open: (page) => page.goto(`${suite.service.origin}/console/wallets/${operator.walletIdx}`) },
  { name: 'console: operators', as: 'operator', open: visit('/console/operators') },
  { name: 'console: audit log', as: 'operator', open: visit('/console/audit') },
  { name: 'console: account', as: 'operator', open: visit('/console/account') },
  {
    name: 'console: refused (403) to a role without the permission',
    as: 'visitor',
    open: async (page) => {
      await signInToConsole(page, await newOperator(suite.service.t.ctx, 'support'));
      expect((await page.goto(`${suite.service.origin}/console/operators`))?.status()).toBe(403);
    },
  },
  { name: 'console: page not found', as: 'operator', open: visit('/console/payments/not-a-payment') },

  // The API reference and the demo shop.
  { name: 'docs', as: 'visitor', open: visit('/docs') },
  { name: 'demo: the shop', as: 'visitor', payer: true, open: visit('/demo') },
  {
    name: 'demo: order paid',
    as: 'visitor',
    payer: true,
    open: async (page, t) => {
      await page.goto(`${suite.service.origin}/demo`);
      await page.getByRole('button', { name: `${t.demo.buy} Ilam First Flush` }).click();
      await enterWallet(page, SANDBOX.mobile, SANDBOX.mpin, t);
      await enterOtp(page, SANDBOX.otp, t);
      await page.getByRole('heading', { name: t.demo.outcomes.Completed.title }).waitFor();
    },
  },
  {
    name: 'demo: payment canceled',
    as: 'visitor',
    payer: true,
    open: async (page, t) => {
      await page.goto(`${suite.service.origin}/demo`);
      await page.getByRole('button', { name: `${t.demo.buy} Himalayan Golden Tips` }).click();
      await page.getByRole('button', { name: t.checkout.cancel, exact: true }).click();
      await page.getByRole('heading', { name: t.demo.outcomes['User canceled'].title }).waitFor();
    },
  },
  { name: 'demo: no order here', as: 'visitor', payer: true, open: visit('/demo/return') },
  { name: 'demo: return not signed', as: 'visitor', payer: true, open: visit('/demo/return?pidx=forged&status=Completed') },
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
  await ensureDemoMerchant(suite.service.t.ctx, { storeIsEmpty: async () => true });

  // A merchant with a paid payment, signed in for the dashboard's pages.
  const payer = await suite.resident({ viewport: DESKTOP });
  await signUpInBrowser(payer.page, suite.service.origin, MERCHANT);
  const testKey = (await payer.page.getByLabel('Test secret key').textContent())!.trim();
  // The payers here are people of their own: the visitors' tabs are made once the outage service is up.
  const buyer = (await suite.person({ viewport: DESKTOP })).page;
  const { pidx } = await pay(buyer, await initiate(order(), testKey));
  await payer.page.close();
  merchant = { payer, testKey, paidPidx: pidx };

  // An admin in the console; a payment held Pending by the sandbox's pending wallet; a merchant that applied.
  const admin = await suite.resident({ viewport: DESKTOP }, [suite.service.origin]);
  await signInToConsole(admin.page, await newOperator(suite.service.t.ctx, 'admin'));
  await admin.page.close();
  const held = await initiate();
  const heldPayer = (await suite.person({ viewport: DESKTOP })).page;
  await heldPayer.goto(held);
  await enterWallet(heldPayer, SANDBOX.pendingMobile, SANDBOX.mpin);
  await enterOtp(heldPayer, SANDBOX.otp);
  await landOnMerchant(heldPayer, suite.shop);
  const [wallet] = await suite.service.t.db.query<{ idx: string }>("SELECT idx FROM wallets WHERE mobile = $1 AND environment = 'test'", [SANDBOX.mobile]);
  const applicant = await merchantIn(suite.service.t.ctx, 'applied');
  operator = { payer: admin, pendingPidx: new URL(held).searchParams.get('pidx')!, walletIdx: wallet.idx, applicantIdx: applicant.merchant.idx };

  outage = await outageService;
});

/** The second service, started on its own database, which is then taken down. */
async function startOutageService() {
  const database = await openOutageDatabase('a11y');
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const t = await startTestApp({ db: await openDb({ ...loadConfig({}), databaseUrl: database.url }, 'server'), config: { publicUrl: origin } });
  await t.app.listen({ port, host: '127.0.0.1' });
  await database.down();
  return { database, t, origin };
}

describe('WCAG 2.1 A and AA (axe-core) on every kind of page', () => {
  // Every page in English; a payer's page in Nepali too, for a browser that asks for it.
  const runs = PAGES.flatMap((kind) => [{ kind, language: 'en' as Language }, ...(kind.payer ? [{ kind, language: 'ne' as Language }] : [])]);
  for (const { kind, language } of runs) {
    it.skipIf(kind.outage && !outageKind)(`${kind.name}${language === 'ne' ? ' (नेपाली)' : ''}`, async () => {
      const page = kind.as === 'visitor' ? await ROLES.visitor(language) : await ROLES[kind.as]();
      await kind.open(page, language === 'ne' ? ne : en);
      await page.waitForLoadState('load');
      if (kind.payer) expect(await page.locator('html').getAttribute('lang')).toBe(language);
      const broken = report(await violations(page), 'desktop');
      await page.setViewportSize(PHONE);
      broken.push(...report(await violations(page), 'phone'));
      expect(broken, `${kind.name} (${page.url()})`).toEqual([]);
    });
  }
});
