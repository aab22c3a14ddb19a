// A merchant's browser on the dashboard without JavaScript, over app.inject: it keeps its cookies,
// reads the CSRF token from each page's forms and posts what a person would type.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../src/context.js';
import { createMerchant } from '../src/merchants/create-merchant.js';
import { totpCode } from '../src/people/totp.js';
import { merchantApi, validInitiate } from './api-client.js';
import { lastMailedLink } from './mailbox.js';
import { callbackParams, payerBrowser } from './portal-client.js';

export interface PageResponse {
  status: number;
  body: string;
  location?: string;
  headers: Record<string, unknown>;
  /** The Set-Cookie headers of this response, as sent. */
  setCookies: string[];
}

let counter = 0;

/** A sign-up nobody else uses. */
export function uniqueSignUp(overrides: Partial<{ name: string; email: string; password: string }> = {}) {
  counter += 1;
  const unique = `${process.pid}-${Date.now()}-${counter}`;
  return { name: `Dashboard Shop ${unique}`, email: `dash-${unique}@example.com`, password: 'correct horse battery', ...overrides };
}

export function merchantBrowser(app: FastifyInstance, options: { remoteAddress?: string; userAgent?: string } = {}) {
  const jar = new Map<string, string>();
  let csrf = '';

  const remember = (response: { headers: Record<string, unknown>; body: string }): string[] => {
    const raw = response.headers['set-cookie'];
    const cookies = raw === undefined ? [] : Array.isArray(raw) ? raw.map(String) : [String(raw)];
    for (const cookie of cookies) {
      const [pair, ...attributes] = cookie.split(';').map((s) => s.trim());
      const [name, ...value] = pair.split('=');
      const expired = attributes.some((a) => /^max-age=0$/i.test(a) || (/^expires=/i.test(a) && new Date(a.slice(8)).getTime() < Date.now()));
      if (expired || value.join('=') === '') jar.delete(name);
      else jar.set(name, value.join('='));
    }
    csrf = /name="csrf_token" value="([^"]+)"/.exec(response.body)?.[1] ?? csrf;
    return cookies;
  };

  const cookieHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const agent = options.userAgent ? { 'user-agent': options.userAgent } : {};

  const answer = (response: { statusCode: number; body: string; headers: Record<string, unknown> }, setCookies: string[]): PageResponse => ({
    status: response.statusCode,
    body: response.body,
    location: response.headers.location as string | undefined,
    headers: response.headers,
    setCookies,
  });

  const get = async (url: string): Promise<PageResponse> => {
    const response = await app.inject({ method: 'GET', url, headers: { ...agent, ...(jar.size ? { cookie: cookieHeader() } : {}) }, remoteAddress: options.remoteAddress });
    return answer(response, remember(response));
  };

  /** A form post with this page's CSRF token (unless `csrf_token` is given). */
  const post = async (url: string, fields: Record<string, string> = {}): Promise<PageResponse> => {
    const response = await app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...agent, ...(jar.size ? { cookie: cookieHeader() } : {}) },
      payload: new URLSearchParams({ csrf_token: csrf, ...fields }).toString(),
      remoteAddress: options.remoteAddress,
    });
    return answer(response, remember(response));
  };

  return {
    get,
    post,
    cookies: jar,
    get csrf() {
      return csrf;
    },
    /**
     * Signs up through the form and its e-mailed link (read wherever this process's test apps send
     * e-mail, test/mailbox.ts); returns the two keys the welcome page shows.
     */
    async signUp(fields = uniqueSignUp()) {
      await get('/dashboard/signup');
      const asked = await post('/dashboard/signup', fields);
      if (asked.status !== 200) throw new Error(`sign-up refused: ${asked.status} ${asked.body.slice(0, 500)}`);
      const link = await mailedLinkSoon(fields.email, 'signup');
      await get(link);
      const page = await post(link);
      const test = /<code class="secret"[^>]*>(test_secret_key_[0-9a-f]{32})<\/code>/.exec(page.body)?.[1];
      const live = /<code class="secret"[^>]*>(live_secret_key_[0-9a-f]{32})<\/code>/.exec(page.body)?.[1];
      if (page.status !== 200 || !test || !live) throw new Error(`sign-up failed: ${page.status} ${page.body.slice(0, 500)}`);
      return { page, fields, keys: { test, live } };
    },
    /** Follows the verification link the app mailed to `email` (read from the app's log: no SMTP_URL in tests). */
    async verifyEmail(logs: string[], email: string) {
      const response = await get(mailedLink(logs, email, 'verify-email'));
      if (response.status !== 303 && response.status !== 200) throw new Error(`verification failed: ${response.status}`);
      return response;
    },
    async logIn(email: string, password: string) {
      await get('/dashboard/login');
      return post('/dashboard/login', { email, password });
    },
    /** Switches the dashboard to test or live data. */
    async useEnvironment(environment: 'test' | 'live') {
      await get('/dashboard');
      return post('/dashboard/environment', { environment, back: '/dashboard' });
    },
  };
}

export type MerchantBrowser = ReturnType<typeof merchantBrowser>;

/** The last link of `kind` e-mailed to `email`, waited for a moment (an SMTP inbox receives it a little after). */
export async function mailedLinkSoon(email: string, kind: string): Promise<string> {
  for (let waited = 0; waited < 5000; waited += 20) {
    const link = lastMailedLink(email, kind);
    if (link) return link;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`no ${kind} e-mail to ${email}`);
}

/**
 * A merchant whose owner's e-mail is not verified, as every sign-up was before sign-ups were finished
 * by an e-mailed link (the verification notice is for them), logged in in `browser`.
 */
export async function unverifiedSignUp(ctx: AppContext, browser: MerchantBrowser, fields = uniqueSignUp()) {
  const created = await createMerchant(ctx, fields, { status: 'new' });
  const done = await browser.logIn(fields.email, fields.password);
  if (done.status !== 303) throw new Error(`log-in failed: ${done.status}`);
  return { fields, keys: { test: created.test_secret_key, live: created.live_secret_key }, merchantId: created.merchant.id };
}

/** The path of the last link of `kind` the app's log-mailer wrote for `email`. */
export function mailedLink(logs: string[], email: string, kind: 'verify-email' | 'reset-password'): string {
  const pattern = new RegExp(`https?://[^/\\s]+(/dashboard/${kind}/[\\w-]{43})`);
  for (const line of [...logs].reverse()) {
    if (!line.includes('"mail"')) continue;
    const { mail } = JSON.parse(line) as { mail?: { to: string; text: string } };
    const found = mail && mail.to.toLowerCase() === email.toLowerCase() ? pattern.exec(mail.text) : null;
    if (found) return found[1];
  }
  throw new Error(`no ${kind} e-mail to ${email} in the log`);
}

/** The recovery codes a page shows (once). */
export const recoveryCodesOf = (body: string) => [...body.matchAll(/<li><code>([a-z0-9]{5}-[a-z0-9]{5})<\/code><\/li>/g)].map((m) => m[1]);

/**
 * Two-factor set up on the Security page as a person does it: the secret read from the set-up page,
 * a code of `now` from it. Both pages, the secret and the recovery codes shown.
 */
export async function enrolTotp(browser: MerchantBrowser, now: Date) {
  const page = await browser.get('/dashboard/account/two-factor');
  const secret = /data-secret="([A-Z2-7]+)"/.exec(page.body)?.[1];
  if (!secret) throw new Error(`no secret on the set-up page: ${page.status} ${page.body.slice(0, 300)}`);
  const done = await browser.post('/dashboard/account/two-factor', { code: totpCode(secret, now) });
  return { page, done, secret, codes: recoveryCodesOf(done.body) };
}

/** The text of a page with the markup taken out and white space collapsed, for `toContain`. */
export function pageText(body: string): string {
  return body
    .replace(/<script[\s\S]*?<\/script>/g, ' ')
    // Inline tags join their text; block-level ones separate it.
    .replace(/<\/?(code|strong|span|a|time|em|b)\b[^>]*>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, ' ')
    .trim();
}

/** Initiates a payment with `key` and pays it on the portal with a sandbox wallet. */
export async function paidPayment(app: FastifyInstance, key: string, body: Record<string, unknown> = {}, mobile = '9800000001') {
  const order = validInitiate(body);
  const initiated = await merchantApi(app, key).initiate(order);
  if (initiated.status !== 200) throw new Error(`initiate answered ${initiated.status}: ${JSON.stringify(initiated.body)}`);
  const pidx = initiated.body.pidx as string;
  const done = await payerBrowser(app).pay(pidx, mobile);
  if (done.status !== 303 || !done.location) throw new Error(`payment failed: ${done.status}`);
  return { pidx, transactionId: callbackParams(done.location).transaction_id, purchaseOrderId: order.purchase_order_id as string };
}
