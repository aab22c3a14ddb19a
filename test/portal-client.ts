// A payer's browser without JavaScript, over app.inject: it keeps the cookie, reads the CSRF token
// from each form and posts what a person would type, at the addresses the page gives out
// (`/pay/?pidx=…`; the `/pay/<pidx>` ones given out before are driven with get and post).
import { randomInt } from 'node:crypto';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { AppContext } from '../src/context.js';
import { paymentPath } from '../src/payments/payment-url.js';
import { stepAction } from '../src/portal/checkout-address.js';
import { createWallet } from '../src/wallets/create-wallet.js';
import { topupWallet } from '../src/wallets/topup-wallet.js';
import type { Wallet } from '../src/wallets/wallet.js';

export interface PortalResponse {
  status: number;
  body: string;
  location?: string;
}

/** What a browser here talks to: an app, or several behind one address (test/faults/world.ts). */
export interface Injector {
  inject(options: InjectOptions): Promise<LightMyRequestResponse>;
}

/** `headers`: sent with every request (a browser's Accept-Language, say); `remoteAddress`: the browser's address. */
export function payerBrowser(app: Injector, options: { headers?: Record<string, string>; remoteAddress?: string } = {}) {
  let cookie = '';
  let csrf = '';
  let attempt = '';

  const remember = (response: { headers: Record<string, unknown>; body: string }) => {
    const setCookie = response.headers['set-cookie'];
    const first = Array.isArray(setCookie) ? setCookie[0] : setCookie;
    if (typeof first === 'string') cookie = first.split(';')[0];
    csrf = /name="csrf_token" value="([^"]+)"/.exec(response.body)?.[1] ?? csrf;
    attempt = /name="attempt" value="([^"]+)"/.exec(response.body)?.[1] ?? attempt;
  };

  const get = async (url: string): Promise<PortalResponse> => {
    const response = await app.inject({ method: 'GET', url, remoteAddress: options.remoteAddress, headers: { ...options.headers, ...(cookie ? { cookie } : {}) } });
    remember(response);
    return { status: response.statusCode, body: response.body, location: response.headers.location as string | undefined };
  };

  const post = async (url: string, fields: Record<string, string>): Promise<PortalResponse> => {
    const response = await app.inject({
      method: 'POST',
      url,
      remoteAddress: options.remoteAddress,
      headers: { ...options.headers, 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
      payload: new URLSearchParams({ csrf_token: csrf, ...fields }).toString(),
    });
    remember(response);
    return { status: response.statusCode, body: response.body, location: response.headers.location as string | undefined };
  };

  return {
    get,
    post,
    open: (pidx: string) => get(paymentPath(pidx)),
    /** Mobile + MPIN; on success follows the redirect to the OTP step. */
    async wallet(pidx: string, mobile: string, mpin: string) {
      const response = await post(stepAction('wallet', pidx), { mobile, mpin });
      if (response.status === 303 && response.location) return get(response.location);
      return response;
    },
    otp: (pidx: string, otp: string) => post(stepAction('confirm', pidx), { attempt, otp }),
    cancel: (pidx: string) => post(stepAction('cancel', pidx), {}),
    /** The OTP step's form fields, to replay them (racing confirms). */
    confirmFields: (otp: string) => ({ csrf_token: csrf, attempt, otp, cookie }),
    /** Opens the page, pays with the wallet and returns the redirect to the merchant. */
    async pay(pidx: string, mobile = '9800000001', mpin = '1111', otp = '987654') {
      await get(paymentPath(pidx));
      const step = await this.wallet(pidx, mobile, mpin);
      if (!step.body.includes('name="otp"')) return step;
      return this.otp(pidx, otp);
    },
  };
}

export function callbackParams(location: string): Record<string, string> {
  return Object.fromEntries(new URL(location).searchParams);
}

// Operator-made wallets (what `bhuktani wallet create` / `wallet topup` do), for live payments.

let mobiles = 0;

/** A mobile number no other test uses (wallets are unique per environment and mobile, and the
 * PostgreSQL database is shared by every test file of a run). Never a sandbox number. */
export function uniqueMobile(): string {
  mobiles += 1;
  return `97${String((randomInt(0, 1_000_000) * 100 + mobiles) % 100_000_000).padStart(8, '0')}`;
}

export interface TestWallet {
  wallet: Wallet;
  mobile: string;
  mpin: string;
}

/** A payer wallet created and funded as the operator does it; live unless told otherwise. */
export async function operatorWallet(
  ctx: AppContext,
  options: { balance?: number; mpin?: string; environment?: 'test' | 'live'; name?: string } = {},
): Promise<TestWallet> {
  const mobile = uniqueMobile();
  const mpin = options.mpin ?? '2468';
  const environment = options.environment ?? 'live';
  const wallet = await createWallet(ctx, { mobile, name: options.name ?? `Payer ${mobile}`, mpin, environment });
  if (options.balance) await topupWallet(ctx, { mobile, amount: options.balance, environment });
  return { wallet, mobile, mpin };
}

/** The wallet's running balance, in paisa. */
export async function walletBalanceOf(ctx: AppContext, wallet: Wallet): Promise<number> {
  const rows = await ctx.db.query<{ balance: number }>(
    `SELECT balance FROM ledger_accounts WHERE kind = 'wallet' AND environment = $1 AND owner_id = $2`,
    [wallet.environment, wallet.id],
  );
  return rows[0]?.balance ?? 0;
}

/** The newest OTP sent for `pidx` (live wallets: delivered through ctx.otp, see TestApp.sentOtps). */
export function otpSentFor(sentOtps: { pidx: string; otp: string }[], pidx: string): string {
  const sent = sentOtps.filter((m) => m.pidx === pidx).at(-1);
  if (!sent) throw new Error(`no OTP was sent for ${pidx}`);
  return sent.otp;
}

/** Pays `pidx` with a live wallet: MPIN step, then the OTP that was sent. Returns the last response. */
export async function payWithLiveWallet(
  browser: ReturnType<typeof payerBrowser>,
  sentOtps: { pidx: string; otp: string }[],
  pidx: string,
  payer: { mobile: string; mpin: string },
): Promise<PortalResponse> {
  await browser.open(pidx);
  const step = await browser.wallet(pidx, payer.mobile, payer.mpin);
  if (!step.body.includes('name="otp"')) return step;
  return browser.otp(pidx, otpSentFor(sentOtps, pidx));
}
