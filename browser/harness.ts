// What the browser tests share: the service listening on a real port, a merchant's website the
// browser returns to, headless Chromium, and a watch on every page for console errors, CSP
// violations, dialogs and requests to other hosts.
import { existsSync, mkdirSync } from 'node:fs';
import * as OTPAuth from 'otpauth';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { Config } from '../src/config.js';
import { en, type Messages } from '../src/language/en.js';
import { verifyLedger } from '../src/ledger/verify-ledger.js';
import type { TestOperator } from '../test/console-client.js';
import { mailedLinkSoon } from '../test/dashboard-client.js';
import { type MailInbox, startMailInbox } from '../test/mail-inbox.js';
import { newMerchant, startTestApp, type TestApp } from '../test/test-app.js';

export const SANDBOX = { mobile: '9800000001', pendingMobile: '9800000007', mpin: '1111', otp: '987654' } as const;

export const PHONE = { width: 390, height: 844 } as const;
export const DESKTOP = { width: 1280, height: 800 } as const;
/** The two screens pages are looked at on, the phone's first. */
export const SCREENS = [
  ['phone', PHONE],
  ['desktop', DESKTOP],
] as const;

/** A person's browser on `device`: its screen, and on a phone a mobile viewport and touch. */
export function onDevice(device: 'phone' | 'desktop'): BrowserContextOptions {
  const phone = device === 'phone';
  return { viewport: phone ? PHONE : DESKTOP, isMobile: phone, hasTouch: phone };
}

/** An order's details whose breakdown and products add up to its amount, for the pages that show them all. */
export const TEA_FOR_THE_OFFICE = {
  amount: 123456,
  purchase_order_name: 'Tea for the office',
  amount_breakdown: [
    { label: 'Tea', amount: 100000 },
    { label: 'Delivery', amount: 23456 },
  ],
  product_details: [
    { identity: 'tea-ilam', name: 'Ilam first flush', total_price: 80000, quantity: 2, unit_price: 40000 },
    { identity: 'tea-masala', name: 'Masala chai', total_price: 20000, quantity: 1, unit_price: 20000 },
  ],
};

/**
 * Debian's Chromium: its headless shell where installed (`apt-get install -y chromium-headless-shell`),
 * the same build without the desktop browser's window machinery, as Playwright runs headless
 * Chromium by default (a new context with its page: 91 ms against 330 ms here; the suite 0.7 of
 * the time); else the browser itself. `CHROMIUM_PATH` names another.
 */
function chromiumPath(): string {
  const headlessShell = '/usr/lib/chromium/chromium-headless-shell';
  return process.env.CHROMIUM_PATH ?? (existsSync(headlessShell) ? headlessShell : '/usr/bin/chromium');
}

function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
  });
}

let workersChromium: Promise<Browser> | undefined;

/**
 * The worker's Chromium: a worker of the browser suite runs its files one after another in one
 * process (vitest.browser.config.ts), and they share one browser, launched by the first and ended
 * with the process. Each file's people have browser contexts of their own.
 */
export function workersBrowser(): Promise<Browser> {
  workersChromium ??= launchChromium();
  return workersChromium;
}

/** A port nobody listens on right now (the service needs its public URL before it listens). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createNetServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function listen(server: Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
}

export interface Visit {
  path: string;
  query: Record<string, string>;
}

/** The merchant's website: return_url and website_url point here; it records every page visit. */
export interface MerchantSite {
  origin: string;
  visits: Visit[];
  close(): Promise<void>;
}

export async function startMerchantSite(): Promise<MerchantSite> {
  const visits: Visit[] = [];
  const server = createHttpServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://merchant.invalid');
    if (url.pathname === '/favicon.ico') {
      response.writeHead(204).end();
      return;
    }
    visits.push({ path: url.pathname, query: Object.fromEntries(url.searchParams) });
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end('<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title></head><body><h1>Order received</h1></body></html>');
  });
  const port = await freePort();
  await listen(server, port);
  return {
    origin: `http://127.0.0.1:${port}`,
    visits,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export interface Initiated {
  pidx: string;
  payment_url: string;
  expires_at: string;
}

/** The service on a real port, and a merchant that talks to it over HTTP as a shop's server does. */
export interface Service {
  t: TestApp;
  origin: string;
  merchant: { name: string; key: string };
  /** Initiates as a shop's server does, with the harness merchant's test key unless `key` is given. */
  initiate(body: Record<string, unknown>, key?: string): Promise<Initiated>;
  /** Looks up as a shop's server does, with the harness merchant's test key unless `key` is given. */
  lookup(pidx: string, key?: string): Promise<{ status: number; body: Record<string, unknown> }>;
  /** Makes a payment link as a shop's server does, with the harness merchant's test key: its address. */
  createLink(body: Record<string, unknown>): Promise<string>;
  /** Every ledger invariant that does not hold (empty when the ledger is sound). */
  brokenLedgerInvariants(): Promise<string[]>;
  close(): Promise<void>;
}

/** `config`: more settings of the service (an SMTP server's, say); `ownDb`: a store of its own (a file that changes the store's set-up). */
export async function startService(options: { merchantName: string; config?: Partial<Config>; ownDb?: true }): Promise<Service> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const t = await startTestApp({ config: { ...options.config, publicUrl: origin }, ownDb: options.ownDb });
  await t.app.listen({ port, host: '127.0.0.1' });
  const merchant = await newMerchant(t.ctx, { name: options.merchantName });
  const key = merchant.test_secret_key;
  const post = async (path: string, body: unknown, secretKey = key) => {
    const response = await fetch(`${origin}${path}`, {
      method: 'POST',
      headers: { authorization: `Key ${secretKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  return {
    t,
    origin,
    merchant: { name: options.merchantName, key },
    async initiate(body, secretKey) {
      const response = await post('/api/v2/epayment/initiate/', body, secretKey);
      if (response.status !== 200) throw new Error(`initiate answered ${response.status}: ${JSON.stringify(response.body)}`);
      return response.body as unknown as Initiated;
    },
    lookup: (pidx, secretKey) => post('/api/v2/epayment/lookup/', { pidx }, secretKey),
    async createLink(body) {
      const response = await post('/api/v2/payment-links/', body);
      if (response.status !== 201) throw new Error(`payment link answered ${response.status}: ${JSON.stringify(response.body)}`);
      return response.body.url as string;
    },
    async brokenLedgerInvariants() {
      return (await verifyLedger(t.db)).filter((r) => !r.holds).map((r) => `${r.invariant}: ${JSON.stringify(r.violations)}`);
    },
    close: () => t.close(),
  };
}

/**
 * Signs up on the dashboard as a person does: the form, "check your e-mail", the link in the e-mail
 * (wherever the service sent it), its button; ends on the welcome page with the keys.
 */
export async function signUpInBrowser(page: Page, origin: string, fields: { name: string; email: string; password: string }): Promise<void> {
  await page.goto(`${origin}/dashboard/signup`);
  await page.getByLabel('Business name').fill(fields.name);
  await page.getByLabel('Email').fill(fields.email);
  await page.getByLabel('Password').fill(fields.password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('heading', { level: 1, name: 'Check your e-mail' }).waitFor();
  await page.goto(`${origin}${await mailedLinkSoon(fields.email, 'signup')}`);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.locator('code.secret').first().waitFor();
}

/** A payer: one browser context (its own cookies) with one page, watched for anything amiss. */
export interface Payer {
  context: BrowserContext;
  page: Page;
  /** Console errors (CSP violations among them), page errors, dialogs and requests to other hosts. */
  problems: string[];
  dialogs: string[];
  /** Opens a second tab in the same context (same cookies), watched the same way. */
  newTab(): Promise<Page>;
}

export async function openPayer(browser: Browser, allowedOrigins: string[], options: BrowserContextOptions = {}): Promise<Payer> {
  const context = await browser.newContext({ viewport: DESKTOP, ...options });
  const problems: string[] = [];
  const dialogs: string[] = [];
  context.on('request', (request) => {
    const url = new URL(request.url());
    if (!allowedOrigins.includes(url.origin)) problems.push(`request to another host: ${request.method()} ${request.url()}`);
  });
  const watch = (page: Page) => {
    page.on('console', (message) => {
      if (message.type() !== 'error') return;
      const source = message.location().url;
      // Chromium logs every non-2xx document as an error; the portal answers its notice pages with
      // 4xx on purpose, and the outage page with 503. Failures of anything the page itself loads still count.
      if (source === page.url() && /^Failed to load resource: the server responded with a status of (4\d\d|503)/.test(message.text())) return;
      problems.push(`console error at ${page.url()} (${source}): ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error at ${page.url()}: ${error.message}`));
    page.on('dialog', (dialog) => {
      dialogs.push(`${dialog.type()}: ${dialog.message()}`);
      void dialog.dismiss();
    });
    return page;
  };
  const page = watch(await context.newPage());
  return { context, page, problems, dialogs, newTab: async () => watch(await context.newPage()) };
}

/** Step one as a person does it: mobile number, MPIN, Pay (`t`: the words of the page's language). */
export async function enterWallet(page: Page, mobile: string, mpin: string, t: Messages = en): Promise<void> {
  await page.getByLabel(t.checkout.mobile).fill(mobile);
  await page.getByLabel(t.checkout.mpin).fill(mpin);
  await page.getByRole('button', { name: t.checkout.pay, exact: true }).click();
}

/** Step two: the OTP, Confirm. */
export async function enterOtp(page: Page, otp: string, t: Messages = en): Promise<void> {
  await page.getByLabel(t.checkout.otp).fill(otp);
  await page.getByRole('button', { name: t.checkout.confirm, exact: true }).click();
}

/** A payer's browser that asks for Nepali (its Accept-Language, from the locale), on `device`'s screen. */
export function inNepali(options: BrowserContextOptions = {}): BrowserContextOptions {
  return { ...options, locale: 'ne-NP' };
}

/** Waits until the browser is back on the merchant's site and returns the query it arrived with. */
export async function landOnMerchant(page: Page, merchant: MerchantSite): Promise<Record<string, string>> {
  await page.waitForURL((url) => url.origin === merchant.origin);
  await page.getByRole('heading', { name: 'Order received' }).waitFor();
  return Object.fromEntries(new URL(page.url()).searchParams);
}

export const SCREENSHOT_DIR = fileURLToPath(new URL('./screenshots/', import.meta.url));

/** A full-page picture in browser/screenshots/ (not committed); nothing may stick out sideways first. */
export async function screenshot(page: Page, name: string): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `${name} is wider than the screen`).toBeLessThanOrEqual(0);
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: `${SCREENSHOT_DIR}${name}.png`, fullPage: true });
}

/** An operator signs in to the console at `origin`: e-mail, password, then the authenticator's code by the service's clock (RFC 6238). */
export async function signInToConsole(page: Page, origin: string, operator: Pick<TestOperator, 'email' | 'password' | 'secret'>, now: () => Date): Promise<void> {
  await page.goto(`${origin}/console`);
  await page.getByLabel('E-mail').fill(operator.email);
  await page.getByLabel('Password').fill(operator.password);
  await page.getByRole('button', { name: 'Continue' }).click();
  const code = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(operator.secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp: now().getTime() });
  await page.getByLabel('Code').fill(code);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Overview' }).waitFor();
}

/** `screenshot` at the phone's width and then the desktop's (`<name>-phone`, `<name>-desktop`); the page is left at desktop width. */
export async function screenshotsAtBothWidths(page: Page, name: string): Promise<void> {
  for (const [size, viewport] of SCREENS) {
    await page.setViewportSize(viewport);
    await screenshot(page, `${name}-${size}`);
  }
}

/**
 * What a browser test file sets up: the service, a merchant's site and Chromium, started before its
 * tests and stopped after (with `mail`, first a real SMTP server the service sends its e-mails to;
 * with `shop: false`, no merchant's site). The people it opens are closed after each test, which
 * then fails on any problem they met, any dialog, or a broken ledger invariant; residents stay open
 * for the whole file and are checked after each test the same way. Read the fields inside tests.
 */
export function browserSuite(options: {
  merchantName: string;
  /** A real SMTP server in the test process (test/mail-inbox.ts): `suite.inbox`, the service's SMTP_URL. */
  mail?: true;
  /** No merchant's website: the pages may ask the service only. */
  shop?: false;
  /** The service on a store of its own (a file that sets providers up, or counts in the operators' audit log: the whole store's). */
  ownDb?: true;
}) {
  let opened: Payer[] = [];
  const residents: Payer[] = [];
  const suite = {
    service: undefined as unknown as Service,
    shop: undefined as unknown as MerchantSite,
    browser: undefined as unknown as Browser,
    inbox: undefined as unknown as MailInbox,
    /** A person in a browser context of their own, closed and checked after the test; their pages may ask `hosts` only (the service and the shop). */
    person: (contextOptions: BrowserContextOptions = {}, hosts?: string[]) => open(opened, contextOptions, hosts),
    /** A person kept for the whole file (signed in once, say), closed after its last test. */
    resident: (contextOptions: BrowserContextOptions = {}, hosts?: string[]) => open(residents, contextOptions, hosts),
    /** The origins the file's pages may ask: the service's, and the shop's when there is one. */
    hosts: (): string[] => [suite.service.origin, ...(suite.shop ? [suite.shop.origin] : [])],
  };
  async function open(into: Payer[], contextOptions: BrowserContextOptions, hosts = suite.hosts()): Promise<Payer> {
    const person = await openPayer(suite.browser, hosts, contextOptions);
    into.push(person);
    return person;
  }
  beforeAll(async () => {
    if (options.mail) suite.inbox = await startMailInbox();
    if (options.shop !== false) suite.shop = await startMerchantSite();
    suite.service = await startService({ merchantName: options.merchantName, config: suite.inbox?.config, ownDb: options.ownDb });
    suite.browser = await workersBrowser();
  });
  afterAll(async () => {
    for (const resident of residents.splice(0)) await resident.context.close();
    await suite.service?.close();
    await suite.shop?.close();
    await suite.inbox?.close();
  });
  afterEach(async () => {
    const people = opened;
    opened = [];
    for (const person of people) await person.context.close();
    // A resident's are forgotten once checked: the next test answers only for its own.
    const met = [...people, ...residents];
    expect(met.flatMap((p) => p.problems.splice(0))).toEqual([]);
    expect(met.flatMap((p) => p.dialogs.splice(0))).toEqual([]);
    expect(await suite.service.brokenLedgerInvariants()).toEqual([]);
  });
  return suite;
}
