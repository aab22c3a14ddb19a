// The merchant API and a payer's browser over real HTTP (fetch), against server processes. Every
// request has a deadline; an answer is a status and a body, no answer is an error the caller counts.
import { validInitiate } from '../api-client.js';

export const SANDBOX_WALLETS = ['9800000000', '9800000001', '9800000002', '9800000003', '9800000004', '9800000005'];

export interface Answer<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
  ms: number;
}

/** One JSON request; throws on no answer (refused, reset, timed out). */
export async function requestJson<T = Record<string, unknown>>(
  url: string,
  options: { method?: string; key?: string; body?: unknown; timeoutMs?: number; headers?: Record<string, string> } = {},
): Promise<Answer<T>> {
  const t0 = Date.now();
  const response = await fetch(url, {
    method: options.method ?? 'POST',
    headers: {
      ...(options.key ? { authorization: `Key ${options.key}` } : {}),
      ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...options.headers,
    },
    body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
    signal: AbortSignal.timeout(options.timeoutMs ?? 20_000),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: kept as text, so the caller can say what came instead
  }
  return { status: response.status, body: body as T, headers: response.headers, ms: Date.now() - t0 };
}

export function merchantApi(key: string, timeoutMs = 20_000) {
  return {
    initiate: (base: string, overrides: Record<string, unknown> = {}) =>
      requestJson<{ pidx: string; payment_url: string }>(`${base}/api/v2/epayment/initiate/`, { key, body: validInitiate(overrides), timeoutMs }),
    lookup: (base: string, pidx: string) =>
      requestJson<{ pidx: string; status: string; transaction_id: string | null; refunded_amount: number; total_amount: number }>(
        `${base}/api/v2/epayment/lookup/`,
        { key, body: { pidx }, timeoutMs },
      ),
    refund: (base: string, transactionId: string, amount?: number) =>
      requestJson<{ detail: string }>(`${base}/api/merchant-transaction/${encodeURIComponent(transactionId)}/refund/`, {
        key,
        body: amount === undefined ? {} : { amount },
        timeoutMs,
      }),
    payout: (base: string, amount: number) => requestJson<{ idx: string; amount: number; state: string }>(`${base}/api/v2/settlements/`, { key, body: { amount }, timeoutMs }),
    getPayout: (base: string, idx: string) => requestJson<{ idx: string; amount: number; state: string }>(`${base}/api/v2/settlements/${encodeURIComponent(idx)}/`, { method: 'GET', key, timeoutMs }),
  };
}

export interface PageAnswer {
  status: number;
  body: string;
  location?: string;
  retryAfter?: string;
}

/**
 * A browser without JavaScript: keeps its cookies, reads the CSRF token and the attempt token from
 * each form and posts what a person types. `base` is chosen per request, so one payment's steps may
 * go to different instances.
 */
export function payerBrowser(timeoutMs = 20_000) {
  const cookies = new Map<string, string>();
  let csrf = '';
  let attempt = '';

  const cookieHeader = () => [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');

  async function send(url: string, init: RequestInit): Promise<PageAnswer> {
    const response = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), ...(cookies.size ? { cookie: cookieHeader() } : {}) },
      signal: AbortSignal.timeout(timeoutMs),
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair.indexOf('=');
      cookies.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
    }
    const body = await response.text();
    csrf = /name="csrf_token" value="([^"]+)"/.exec(body)?.[1] ?? csrf;
    attempt = /name="attempt" value="([^"]+)"/.exec(body)?.[1] ?? attempt;
    return { status: response.status, body, location: response.headers.get('location') ?? undefined, retryAfter: response.headers.get('retry-after') ?? undefined };
  }

  const get = (url: string) => send(url, { method: 'GET' });
  const post = (url: string, fields: Record<string, string>) =>
    send(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrf_token: csrf, ...fields }).toString(),
    });

  return {
    get,
    post,
    cookies,
    /** The OTP form as the browser holds it, to replay the same confirm elsewhere (racing confirms). */
    confirmForm: (otp: string) => ({ fields: { csrf_token: csrf, attempt, otp }, cookie: cookieHeader() }),
    open: (base: string, pidx: string) => get(`${base}/pay/${pidx}`),
    /** Mobile and MPIN, then the OTP page the 303 leads to. */
    async wallet(base: () => string, pidx: string, mobile: string, mpin = '1111'): Promise<PageAnswer> {
      const step = await post(`${base()}/pay/${pidx}/wallet`, { mobile, mpin });
      if (step.status !== 303 || !step.location) return step;
      return get(new URL(step.location, base()).toString());
    },
    confirm: (base: string, pidx: string, otp = '987654') => post(`${base}/pay/${pidx}/confirm`, { attempt, otp }),
    cancel: (base: string, pidx: string) => post(`${base}/pay/${pidx}/cancel`, {}),
  };
}

/** The query of the 303 to the merchant's return_url, or undefined when the answer is something else. */
export function callbackOf(answer: PageAnswer): Record<string, string> | undefined {
  if (answer.status !== 303 || !answer.location?.startsWith('https://shop.example.com/')) return undefined;
  return Object.fromEntries(new URL(answer.location).searchParams);
}

/** Pays `pidx` with a sandbox wallet through the hosted page; the last answer (303 to the shop when paid). */
export async function payOnPortal(base: () => string, pidx: string, mobile: string, timeoutMs?: number): Promise<PageAnswer> {
  const browser = payerBrowser(timeoutMs);
  const page = await browser.open(base(), pidx);
  if (page.status !== 200) return page;
  const otpPage = await browser.wallet(base, pidx, mobile);
  if (otpPage.status !== 200 || !otpPage.body.includes('name="otp"')) return otpPage;
  return browser.confirm(base(), pidx);
}

export async function cancelOnPortal(base: () => string, pidx: string, timeoutMs?: number): Promise<PageAnswer> {
  const browser = payerBrowser(timeoutMs);
  const page = await browser.open(base(), pidx);
  if (page.status !== 200) return page;
  return browser.cancel(base(), pidx);
}

/** Why a request got no answer, in a word: refused, reset, timeout or the message. */
export function noAnswerKind(error: unknown): string {
  const cause = (error as { cause?: { code?: string; name?: string } }).cause;
  if ((error as Error).name === 'TimeoutError' || cause?.name === 'TimeoutError') return 'timeout';
  if (cause?.code === 'ECONNREFUSED') return 'refused';
  if (cause?.code === 'ECONNRESET' || cause?.code === 'UND_ERR_SOCKET' || cause?.code === 'EPIPE') return 'reset';
  return cause?.code ?? (error as Error).message;
}
