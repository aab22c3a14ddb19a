// Model-based test of the payment lifecycle (issue 6): random sequences of operations — initiate,
// open and pay on the hosted page, hold with the pending wallet, cancel, expire by the clock (and
// the sweep), refund whole, in parts and over the rest, resolve, look up, list, and payouts (issue
// 18: request, process, pay, fail, the sandbox bank, and automatic schedules chosen by merchants and
// run by one or two instances of the job while the clock moves across days; issue 26: paying through
// Khalti, eSewa and connectIPS's sandbox simulators with each outcome — paid, canceled, pending then
// paid, never answers — and the reconciliation job asking again) — run against ONE real
// service through its HTTP surface (the operator's resolve and payout moves, the schedule's choice
// and job through their service functions), and after every step compared with the pure model of
// model.ts: lookup status and HTTP code, fee, refunded amount, transaction id, the list's records,
// wallet and merchant balances (pending, available, clearing), the payouts and the schedules'
// periods, the order rule, and every ledger invariant (verifyLedger) every few steps and at the end
// of each run.
//
// Size: at least MODEL_STEPS (default 1000) steps, in runs of up to MODEL_MAX_COMMANDS (200)
// commands; each run starts with new merchants and a new live wallet. On failure fast-check prints
// the run's seed and its commands: MODEL_SEED=<seed> replays that run alone, MODEL_SHRINK=1 also
// shrinks it (slow: every shrink replays against the service).
import { CLI_ACTOR } from '../../src/audit/audit-entry.js';
import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { csrfToken, CSRF_COOKIE } from '../../src/http/csrf.js';
import { AppError } from '../../src/http/errors.js';
import { serverSecret } from '../../src/http/server-secret.js';
import { expirySweep } from '../../src/jobs/expiry-sweep.js';
import { merchantBalance } from '../../src/ledger/merchant-balance.js';
import { verifyLedger } from '../../src/ledger/verify-ledger.js';
import type { CreatedMerchant } from '../../src/merchants/create-merchant.js';
import { resolvePayment } from '../../src/payments/resolve-payment.js';
import { runSandboxBank } from '../../src/jobs/sandbox-bank.js';
import { saveBankAccount } from '../../src/merchants/bank-account-store.js';
import { markPayout } from '../../src/settlements/move-payout.js';
import { choosePayoutSchedule } from '../../src/settlements/choose-payout-schedule.js';
import { findPayoutSchedule } from '../../src/settlements/payout-schedule-store.js';
import { runPayoutSchedules } from '../../src/settlements/run-payout-schedules.js';
import { settlementBalance } from '../../src/settlements/settlement-balance.js';
import { topupWallet } from '../../src/wallets/topup-wallet.js';
import { reconcileAttempts } from '../../src/provider-payments/reconcile-attempts.js';
import { formOf, handoffLink } from '../provider-payer.js';
import { operatorWallet, otpSentFor, walletBalanceOf, type TestWallet } from '../portal-client.js';
import { newMerchant, startTestApp } from '../test-app.js';
import { providerNames } from '../../src/providers/registry.js';
import * as M from './model.js';
import type { Environment, Model, ModelPayment } from './model.js';

const STEPS = Number(process.env.MODEL_STEPS ?? 1000);
const MAX_COMMANDS = Number(process.env.MODEL_MAX_COMMANDS ?? 200);
const SEED = process.env.MODEL_SEED ? Number(process.env.MODEL_SEED) : undefined;
const SHRINK = process.env.MODEL_SHRINK === '1';
/** Every this many steps: every payment looked up, every list read whole, the ledger verified. */
const FULL_CHECK_EVERY = 40;

const FEE_BPS = [300, 250, 150];
const ORDER_SLOTS = 4;
const LIVE_FUNDING = 60_000;
const PUBLIC_URL = 'http://bhuktani.test';
const RETURN_URL = 'https://shop.example.com/return?cart=7';

// On PostgreSQL the test files share one database, and this file moves its clock hours ahead and
// runs the expiry sweep, which would expire every other file's payments: it gets its own schema.
// A hold of six minutes (contract section 10; whole hours in SETTLEMENT_HOLD_HOURS, any time here), so
// that the clock's steps move money from pending to available.
const HOLD_HOURS = 0.1;
// Providers' calls that never answer are given up after 200 ms, and handed to operators after 4 questions.
// The model has no cool-downs (provider-payments.test.ts tests failover): a provider is never left off
// the page here, however many silent or late answers come in a row. CI's run of seed 1047178030 on a
// loaded machine was refused connectIPS (400, not offered) where the model offered it; the same seed
// alone passes. Silent answers asked again by the job, or calls slower than 200 ms under load, count as
// failures in a row, and whether the page still held an offered list (cached for KEY_CACHE_SECONDS of
// real time) from before the model's clock passed a cool-down depends on the machine's speed.
const t = await startTestApp({
  ownDb: true,
  config: { settlementHoldHours: HOLD_HOURS, providerTimeoutMs: 200, providerReconcileLimit: 4, providerFailureLimit: 1_000_000 },
});
afterAll(async () => {
  await t.close();
});
const csrfSecret = await serverSecret(t.db, 'csrf');
const ttlSeconds = t.ctx.config.paymentTtlSeconds;

/** What each run has on the real side. */
interface Real {
  id: string;
  merchants: CreatedMerchant[];
  live: TestWallet;
  /** The payer's browser: one CSRF cookie for every payment page it opens. */
  nonce: string;
  steps: number;
}

const stats = new Map<string, number>();
const count = (what: string) => stats.set(what, (stats.get(what) ?? 0) + 1);
let totalSteps = 0;

// ---- the real side ----------------------------------------------------------------------------

const keyOf = (r: Real, merchant: number, environment: Environment) => (environment === 'test' ? r.merchants[merchant].test_secret_key : r.merchants[merchant].live_secret_key);

async function api(key: string, method: 'GET' | 'POST', url: string, payload?: object) {
  const response = await t.app.inject({ method, url, headers: { authorization: `Key ${key}` }, ...(payload ? { payload } : {}) });
  return { status: response.statusCode, body: response.json() };
}

interface Page {
  status: number;
  body: string;
  location?: string;
}

async function portal(r: Real, method: 'GET' | 'POST', url: string, fields?: Record<string, string>): Promise<Page> {
  const response = await t.app.inject({
    method,
    url,
    headers: { cookie: `${CSRF_COOKIE}=${r.nonce}`, ...(fields ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
    ...(fields ? { payload: new URLSearchParams(fields).toString() } : {}),
  });
  expect(response.statusCode, `${method} ${url}: ${response.body.slice(0, 300)}`).toBeLessThan(500);
  return { status: response.statusCode, body: response.body, location: response.headers.location as string | undefined };
}

/** The CSRF token the payer's browser holds for a payment's forms (the page shows the same one). */
function csrfFor(r: Real, pidx: string): string {
  const request = { cookies: { [CSRF_COOKIE]: r.nonce } } as unknown as FastifyRequest;
  const reply = { setCookie: () => reply } as unknown as FastifyReply;
  return csrfToken(request, reply, csrfSecret, { binding: pidx, secure: false });
}

const PAGE_TEXT: Record<string, string> = {
  expired: 'Payment expired',
  finished: 'Payment finished',
  order_paid: 'Order already paid',
  invalid_input: 'Enter your 10-digit mobile number and your 4-digit MPIN.',
  unknown_wallet: 'No wallet is registered with this mobile number.',
  wrong_mpin: 'Wrong MPIN.',
  wallet_locked: 'This wallet is locked after too many wrong MPINs.',
  insufficient_balance: 'This wallet does not have enough balance.',
  wrong_otp: 'Wrong OTP.',
  attempt_ended: 'Too many wrong OTPs.',
  otp_expired: 'The OTP has expired.',
};
const PAGE_STATUS: Record<string, number> = { expired: 410, finished: 200, order_paid: 409 };

/** The hosted page's answer to an outcome that is not a redirect. */
function expectPage(page: Page, kind: string) {
  expect({ kind, status: page.status }).toEqual({ kind, status: PAGE_STATUS[kind] ?? 400 });
  expect(page.body).toContain(PAGE_TEXT[kind]);
}

/** The redirect back to the merchant, with the result in the query. */
function expectCallback(page: Page, p: ModelPayment, status: 'Completed' | 'Pending' | 'User canceled'): Record<string, string> {
  expect(page.status).toBe(303);
  const url = new URL(page.location!);
  expect(`${url.origin}${url.pathname}`).toBe('https://shop.example.com/return');
  const params = Object.fromEntries(url.searchParams);
  expect(params).toMatchObject({ cart: '7', pidx: p.pidx, status, amount: String(p.amount), total_amount: String(p.amount), purchase_order_id: p.orderId });
  if (status === 'User canceled') expect(params).toMatchObject({ transaction_id: '', tidx: '', txnId: '', mobile: '' });
  else {
    expect(params.transaction_id).toMatch(/^[\w-]+$/);
    expect(params.tidx).toBe(params.transaction_id);
    expect(params.txnId).toBe(params.transaction_id);
    expect(params.mobile).toBe(p.payer ? M.maskMobile(p.payer) : '');
  }
  return params;
}

// ---- checks against the model -----------------------------------------------------------------

async function checkLookup(m: Model, r: Real, p: ModelPayment) {
  const expected = M.expectedLookup(m, p);
  const { status, body } = await api(keyOf(r, p.merchant, p.environment), 'POST', '/api/v2/epayment/lookup/', { pidx: p.pidx });
  expect({ status, body }).toStrictEqual({ status: expected.httpStatus, body: { ...expected.body, expires_at: expect.any(String) } });
  expect(new Date(body.expires_at).getTime()).toBe(p.expiresAt);
  return body.status as M.Status;
}

interface ApiRecord {
  idx: string;
  type: { name: string };
  state: { name: string };
  pidx: string;
  purchase_order_id: string;
  amount: number;
  fee_amount: number;
  refunded: boolean;
  user: { mobile: string };
}

const shapeOf = (record: ApiRecord) => ({
  type: record.type.name,
  state: record.state.name,
  pidx: record.pidx,
  purchase_order_id: record.purchase_order_id,
  amount: record.amount,
  fee_amount: record.fee_amount,
  refunded: record.refunded,
  mobile: record.user.mobile,
});

const expectedShape = (record: M.ModelRecord) => ({
  type: record.type,
  state: record.state,
  pidx: record.pidx,
  purchase_order_id: record.orderId,
  amount: record.amount,
  fee_amount: record.feeAmount,
  refunded: record.refunded,
  mobile: record.payer ? M.maskMobile(record.payer) : '',
});

function expectRecords(records: ApiRecord[], expected: M.ModelRecord[]) {
  expect(records.map(shapeOf)).toStrictEqual(expected.map(expectedShape));
  expected.forEach((record, i) => {
    if (record.idx) expect(records[i].idx).toBe(record.idx);
  });
}

/** One order: its records in the list, every pidx of it looked up, and at most one holding the money. */
async function checkOrder(m: Model, r: Real, p: ModelPayment) {
  const query = new URLSearchParams({ purchase_order_id: p.orderId, page_size: '100' });
  const list = await api(keyOf(r, p.merchant, p.environment), 'GET', `/api/v2/merchant-transaction/?${query}`);
  expect(list.status).toBe(200);
  expectRecords(list.body.records, M.expectedRecords(m, p.merchant, p.environment, p.orderId));
  const siblings = m.payments.filter((q) => q.merchant === p.merchant && q.environment === p.environment && q.orderId === p.orderId);
  const statuses = [];
  for (const q of siblings) statuses.push(await checkLookup(m, r, q));
  expect(statuses.filter((s) => ['Pending', 'Completed', 'Partially refunded', 'Refunded'].includes(s)).length).toBeLessThanOrEqual(1);
  expect(M.holdersOfOrder(m, p).length).toBeLessThanOrEqual(1);
}

/** A merchant's whole list in one environment, page by page, against the model. */
async function checkList(m: Model, r: Real, merchant: number, environment: Environment, pageSize: number) {
  const expected = M.expectedRecords(m, merchant, environment);
  const totalPages = Math.max(1, Math.ceil(expected.length / pageSize));
  const records: ApiRecord[] = [];
  for (let page = 1; page <= totalPages; page++) {
    const { status, body } = await api(keyOf(r, merchant, environment), 'GET', `/api/v2/merchant-transaction/?page=${page}&page_size=${pageSize}`);
    expect(status).toBe(200);
    const first = expected.length ? (page - 1) * pageSize + 1 : 0;
    const link = (n: number) => `${PUBLIC_URL}/api/v2/merchant-transaction/?page=${n}&page_size=${pageSize}`;
    expect(body).toMatchObject({
      total_pages: totalPages,
      total_records: expected.length,
      current_page: page,
      record_range: expected.length ? [first, Math.min(page * pageSize, expected.length)] : [0, 0],
      next: page < totalPages ? link(page + 1) : null,
      previous: page > 1 ? link(page - 1) : null,
    });
    records.push(...body.records);
  }
  expectRecords(records, expected);
  const past = await api(keyOf(r, merchant, environment), 'GET', `/api/v2/merchant-transaction/?page=${totalPages + 1}&page_size=${pageSize}`);
  expect(past).toStrictEqual({ status: 404, body: { detail: 'Invalid page.' } });
}

/** Money: merchant balances, the live wallet's balance, what this run's payments moved on each wallet, and nothing stored that the model does not know. */
async function checkMoney(m: Model, r: Real, touched?: ModelPayment[]) {
  // The merchants' balances as the ledger derives them (what the dashboard shows): those touched, or all.
  const owners = touched ? touched.map((p) => [p.merchant, p.environment] as const) : r.merchants.flatMap((_, i) => [[i, 'test'] as const, [i, 'live'] as const]);
  for (const [i, environment] of new Map(owners.map((o) => [o.join(':'), o])).values()) {
    await checkBalances(m, r, i, environment);
  }
  expect(await walletBalanceOf(t.ctx, r.live.wallet)).toBe(M.findWallet(m, 'live', r.live.mobile)!.balance);
  const ids = r.merchants.map((x) => x.merchant.id);
  const nets = await t.db.query<{ environment: Environment; mobile: string; net: number }>(
    `SELECT w.environment, w.mobile, sum(po.amount) AS net
       FROM payments pay JOIN journals j ON j.pidx = pay.pidx JOIN postings po ON po.journal_id = j.id
       JOIN ledger_accounts a ON a.id = po.account_id AND a.kind = 'wallet' JOIN wallets w ON w.id = a.owner_id
      WHERE pay.merchant_id = ANY($1) GROUP BY w.environment, w.mobile`,
    [ids],
  );
  const actual = Object.fromEntries(nets.map((n) => [`${n.environment}:${n.mobile}`, Number(n.net)]).filter(([, net]) => net !== 0));
  const modelled = Object.fromEntries([...m.wallets.values()].filter((w) => w.net !== 0).map((w) => [`${w.environment}:${w.mobile}`, w.net]));
  expect(actual).toEqual(modelled);
  const [{ payments }] = await t.db.query<{ payments: number }>('SELECT count(*)::int AS payments FROM payments WHERE merchant_id = ANY($1)', [ids]);
  expect(payments).toBe(m.payments.length);
  const [{ payouts }] = await t.db.query<{ payouts: number }>('SELECT count(*)::int AS payouts FROM payouts WHERE merchant_id = ANY($1)', [ids]);
  expect(payouts).toBe(m.payouts.length);
  // The sandbox's covers of test refunds: exactly those the model's rule gives, in order, each once.
  const covers = await t.db.query<{ merchant_id: number; amount: number }>(
    `SELECT t.merchant_id, p.amount FROM journals j JOIN transactions t ON t.id = j.refund_record_id JOIN postings p ON p.journal_id = j.id AND p.amount > 0
      WHERE j.kind = 'sandbox_cover' AND t.merchant_id = ANY($1) ORDER BY j.id`,
    [ids],
  );
  expect(covers.map((c) => [ids.indexOf(c.merchant_id), c.amount])).toEqual(m.covers.map((c) => [c.merchant, c.amount]));
}

/** The merchant account's balance, and its split into pending, available and clearing (contract section 10). */
async function checkBalances(m: Model, r: Real, i: number, environment: Environment) {
  const owner = { merchantId: r.merchants[i].merchant.id, environment };
  const balance = await merchantBalance(t.db, owner);
  const split = await settlementBalance(t.ctx, owner);
  expect({ merchant: i, environment, balance, ...split }).toEqual({ merchant: i, environment, balance: M.merchantBalance(m, i, environment), ...M.balances(m, i, environment) });
}

async function checkLedger() {
  expect((await verifyLedger(t.db)).filter((result) => !result.holds)).toEqual([]);
}

/** Everything: every payment, every list, the money and the ledger. */
async function fullCheck(m: Model, r: Real) {
  for (const p of m.payments) await checkLookup(m, r, p);
  for (let merchant = 0; merchant < r.merchants.length; merchant++) {
    for (const environment of ['test', 'live'] as const) await checkList(m, r, merchant, environment, 100);
  }
  await checkMoney(m, r);
  await checkLedger();
}

// ---- commands ---------------------------------------------------------------------------------

interface Pick {
  n: number;
  prefer: boolean;
}
const pickArb: fc.Arbitrary<Pick> = fc.record({ n: fc.nat(), prefer: fc.constantFrom(true, true, true, false) });

/** A payment of this run; with `prefer`, one for which the command is interesting, when there is one. */
function pickPayment(m: Model, pick: Pick, interesting: (p: ModelPayment) => boolean): ModelPayment {
  const preferred = pick.prefer ? m.payments.filter(interesting) : [];
  const pool = preferred.length ? preferred : m.payments;
  return pool[pick.n % pool.length];
}

const unpaid = (m: Model) => (p: ModelPayment) => M.effectiveStatus(p, m.now) === 'Initiated';

/** The payer's wallets for a payment's environment: some unknown there on purpose. */
function walletFor(r: Real, environment: Environment, slot: number): { mobile: string; mpin: string } {
  const test = [{ mobile: '9800000001', mpin: '1111' }, { mobile: '9800000002', mpin: '1111' }, { mobile: '9800000007', mpin: '1111' }, { mobile: '9800000007', mpin: '1111' }, r.live];
  const live = [r.live, r.live, r.live, { mobile: '9800000001', mpin: '1111' }];
  const wallets = environment === 'test' ? test : live;
  return wallets[slot % wallets.length];
}

abstract class Step implements fc.AsyncCommand<Model, Real> {
  protected detail = '';
  abstract readonly name: string;
  /** What must exist for the command to apply: a payment to act on, an attempt to confirm. */
  protected needs: 'nothing' | 'payment' | 'attempt' = 'payment';
  check(m: Readonly<Model>): boolean {
    return this.needs === 'nothing' || (this.needs === 'payment' ? m.payments.length > 0 : m.attempts.length > 0);
  }
  protected abstract act(m: Model, r: Real): Promise<ModelPayment[]>;
  async run(m: Model, r: Real): Promise<void> {
    const touched = await this.act(m, r);
    r.steps += 1;
    totalSteps += 1;
    count(this.name);
    for (const p of touched) await checkOrder(m, r, p);
    await checkMoney(m, r, touched);
    if (r.steps % FULL_CHECK_EVERY === 0) await fullCheck(m, r);
  }
  toString(): string {
    return `${this.name}(${this.params()})${this.detail ? ` [${this.detail}]` : ''}`;
  }
  protected abstract params(): string;
}

type Invalid = 'amount_low' | 'amount_text' | 'breakdown' | 'blank_name' | 'bad_url';

class Initiate extends Step {
  name = 'initiate';
  protected needs = 'nothing' as const;
  constructor(
    readonly merchant: number,
    readonly environment: Environment,
    readonly amount: number,
    readonly asString: boolean,
    readonly slot: number,
    readonly invalid: Invalid | null,
  ) {
    super();
  }
  params() {
    return `${this.merchant}, ${this.environment}, ${this.amount}${this.asString ? ' as text' : ''}, order ${this.slot}${this.invalid ? `, ${this.invalid}` : ''}`;
  }
  async act(m: Model, r: Real) {
    const orderId = `${r.id}-m${this.merchant}-${this.environment}-${this.slot}`;
    const body: Record<string, unknown> = {
      return_url: RETURN_URL,
      website_url: 'https://shop.example.com',
      amount: this.asString ? String(this.amount) : this.amount,
      purchase_order_id: orderId,
      purchase_order_name: 'Model order',
      merchant_extra: this.slot,
    };
    const expectedErrors: Record<string, unknown> = {};
    switch (this.invalid) {
      case 'amount_low':
        body.amount = this.amount % 10;
        expectedErrors.amount = ['Amount should be at least 10 paisa.'];
        break;
      case 'amount_text':
        body.amount = `${this.amount}x`;
        expectedErrors.amount = ['A valid integer is required.'];
        break;
      case 'breakdown':
        body.amount_breakdown = [{ label: 'Price', amount: this.amount }, { label: 'VAT', amount: 1 }];
        expectedErrors.amount = ['Amount Breakdown mismatch.'];
        break;
      case 'blank_name':
        body.purchase_order_name = '  ';
        expectedErrors.purchase_order_name = ['This field may not be blank.'];
        break;
      case 'bad_url':
        body.return_url = 'ftp://shop.example.com/return';
        expectedErrors.return_url = ['Enter a valid URL.'];
        break;
    }
    const { status, body: answer } = await api(keyOf(r, this.merchant, this.environment), 'POST', '/api/v2/epayment/initiate/', body);
    if (this.invalid) {
      count(`initiate rejected`);
      // Nothing stored: checkMoney compares the count of this run's payments with the model's.
      expect({ status, body: answer }).toStrictEqual({ status: 400, body: { ...expectedErrors, error_key: 'validation_error' } });
      return [];
    }
    expect(status).toBe(200);
    expect(answer).toStrictEqual({ pidx: expect.stringMatching(/^[\w-]+$/), payment_url: `${PUBLIC_URL}/pay/?pidx=${answer.pidx}`, expires_at: expect.any(String), expires_in: ttlSeconds, merchant_extra: this.slot });
    const p = M.initiate(m, { pidx: answer.pidx, merchant: this.merchant, environment: this.environment, orderId, amount: this.amount });
    expect(new Date(answer.expires_at).getTime()).toBe(p.expiresAt);
    this.detail = p.pidx;
    return [p];
  }
}

class Open extends Step {
  name = 'open';
  constructor(readonly pick: Pick) {
    super();
  }
  params() {
    return `#${this.pick.n}`;
  }
  async act(m: Model, r: Real) {
    const p = pickPayment(m, this.pick, unpaid(m));
    const outcome = M.openPage(m, p);
    this.detail = `${p.pidx} → ${outcome}`;
    count(`open → ${outcome}`);
    const page = await portal(r, 'GET', `/pay/${p.pidx}`);
    if (outcome === 'checkout') {
      expect(page.status).toBe(200);
      expect(page.body).toContain(`name="csrf_token" value="${csrfFor(r, p.pidx)}"`);
      expect(page.body).toContain('name="mpin"');
    } else expectPage(page, outcome);
    return [];
  }
}

/** Step one on the hosted page; on success the attempt (its token and OTP) is returned. */
async function walletStep(m: Model, r: Real, p: ModelPayment, wallet: { mobile: string; mpin: string }): Promise<M.ModelAttempt | undefined> {
  const outcome = M.walletStep(m, p, wallet.mobile, wallet.mpin);
  count(`wallet → ${outcome.kind}`);
  const page = await portal(r, 'POST', `/pay/${p.pidx}/wallet`, { csrf_token: csrfFor(r, p.pidx), mobile: wallet.mobile, mpin: wallet.mpin });
  if (outcome.kind !== 'otp_sent') {
    expectPage(page, outcome.kind);
    return undefined;
  }
  expect(page.status).toBe(303);
  const token = new RegExp(`^/pay/\\?pidx=${p.pidx}&attempt=([\\w-]+)$`).exec(page.location ?? '')?.[1];
  expect(token, page.location).toBeDefined();
  const otpPage = await portal(r, 'GET', page.location!);
  expect(otpPage.status).toBe(200);
  expect(otpPage.body).toContain(`name="attempt" value="${token}"`);
  const sandbox = M.findWallet(m, p.environment, wallet.mobile)!.sandbox;
  return M.startAttempt(m, { token: token!, pidx: p.pidx, mobile: wallet.mobile, otp: sandbox ? M.SANDBOX.otp : otpSentFor(t.sentOtps, p.pidx) });
}

/** Step two: the OTP (right or wrong). */
async function confirmStep(m: Model, r: Real, attempt: M.ModelAttempt, otp: string): Promise<string> {
  const p = M.payment(m, attempt.pidx);
  const outcome = M.confirmStep(m, attempt, otp);
  count(`confirm → ${outcome.kind}${'status' in outcome ? ` ${outcome.status}` : ''}`);
  const page = await portal(r, 'POST', `/pay/${p.pidx}/confirm`, { csrf_token: csrfFor(r, p.pidx), attempt: attempt.token, otp });
  if (outcome.kind === 'paid' || outcome.kind === 'again') {
    const params = expectCallback(page, p, outcome.status);
    if (outcome.kind === 'paid') M.setTransactionId(m, p, params.transaction_id);
    else expect(params.transaction_id).toBe(p.transactionId);
  } else if (outcome.kind === 'wrong_otp') {
    expectPage(page, outcome.kind);
    expect(page.body).toContain('name="otp"');
  } else expectPage(page, outcome.kind);
  return outcome.kind;
}

class Pay extends Step {
  name = 'pay';
  constructor(
    readonly pick: Pick,
    readonly walletSlot: number,
  ) {
    super();
  }
  params() {
    return `#${this.pick.n}, wallet ${this.walletSlot}`;
  }
  async act(m: Model, r: Real) {
    const p = pickPayment(m, this.pick, unpaid(m));
    const wallet = walletFor(r, p.environment, this.walletSlot);
    this.detail = `${p.pidx} ${p.environment} with ${wallet.mobile}`;
    // Opened first, as the payer does; the form is posted whatever the page shows, as a stale tab would.
    const outcome = M.openPage(m, p);
    const page = await portal(r, 'GET', `/pay/${p.pidx}`);
    if (outcome === 'checkout') expect(page.status).toBe(200);
    else expectPage(page, outcome);
    const attempt = await walletStep(m, r, p, wallet);
    if (attempt) this.detail += ` → ${await confirmStep(m, r, attempt, attempt.otp)}`;
    return [p];
  }
}

/**
 * The payer picks a provider on the hosted page (contract section 13), picks `outcome` on its sandbox
 * simulator's page and comes back: paid completes the payment, canceled leaves it payable, an answer
 * the provider cannot give yet holds it Pending.
 */
class PayThroughProvider extends Step {
  name = 'pay through a provider';
  constructor(
    readonly pick: Pick,
    readonly provider: M.Provider,
    readonly outcome: M.ProviderOutcome,
  ) {
    super();
  }
  params() {
    return `#${this.pick.n}, ${this.provider}, ${this.outcome}`;
  }
  async act(m: Model, r: Real) {
    const p = pickPayment(m, this.pick, unpaid(m));
    const outcome = M.providerPay(m, p, this.provider, this.outcome);
    this.detail = `${p.pidx} → ${outcome.kind}${'status' in outcome ? ` ${outcome.status}` : ''}`;
    count(`provider ${this.outcome} → ${outcome.kind}${'status' in outcome ? ` ${outcome.status}` : ''}`);
    const chosen = await portal(r, 'POST', `/pay/provider?pidx=${p.pidx}`, { csrf_token: csrfFor(r, p.pidx), provider: this.provider });
    if (outcome.kind === 'unavailable') {
      expect(chosen.status).toBe(400);
      expect(chosen.body).toContain('This way to pay is not available at the moment.');
      return [p];
    }
    if (outcome.kind !== 'paid' && outcome.kind !== 'back') {
      expectPage(chosen, outcome.kind);
      return [p];
    }
    expect(chosen.status).toBe(200);
    const local = (url: string) => url.replace(PUBLIC_URL, '');
    const link = handoffLink(chosen.body);
    let simulator: Page;
    if (link) simulator = await portal(r, 'GET', local(link));
    else {
      const { action, fields } = formOf(chosen.body);
      const posted = await portal(r, 'POST', local(action), fields);
      expect(posted.status).toBe(302);
      simulator = await portal(r, 'GET', posted.location!);
    }
    const form = [...simulator.body.matchAll(/<form method="post"[\s\S]*?<\/form>/g)].map((x) => x[0]).find((f) => f.includes(`name="outcome" value="${this.outcome}"`))!;
    const { action, fields } = formOf(form);
    const picked = await portal(r, 'POST', action, fields);
    expect(picked.status).toBe(303);
    const back = await portal(r, 'GET', local(picked.location!));
    if (outcome.kind === 'back') {
      expect(back.status).toBe(303);
      expect(back.location).toBe(`/pay/?pidx=${p.pidx}&notice=provider_not_paid`);
      return [p];
    }
    expect(back.status, back.body.slice(0, 500)).toBe(200);
    const params = expectCallback({ status: 303, body: '', location: handoffLink(back.body) }, p, outcome.status);
    M.setTransactionId(m, p, params.transaction_id);
    return [p];
  }
}

/** The reconciliation job, a few minutes of the clock apart: it asks the providers about what they could not tell. */
class Reconcile extends Step {
  name = 'reconcile';
  protected needs = 'nothing' as const;
  params() {
    return '';
  }
  async act(m: Model, _r: Real) {
    for (let run = 0; run < 3; run++) {
      M.advance(m, 120);
      t.clock.advance(120);
      await reconcileAttempts(t.ctx);
    }
    const completed = M.reconcileProviders(m);
    this.detail = `${completed.length} completed`;
    count(`reconcile → ${completed.length ? 'completed' : 'nothing'}`);
    return completed;
  }
}

class StartAttempt extends Step {
  name = 'start attempt';
  constructor(
    readonly pick: Pick,
    readonly walletSlot: number,
  ) {
    super();
  }
  params() {
    return `#${this.pick.n}, wallet ${this.walletSlot}`;
  }
  async act(m: Model, r: Real) {
    const p = pickPayment(m, this.pick, unpaid(m));
    const wallet = walletFor(r, p.environment, this.walletSlot);
    const attempt = await walletStep(m, r, p, wallet);
    this.detail = `${p.pidx} with ${wallet.mobile}${attempt ? ` → attempt ${m.attempts.length - 1}` : ''}`;
    return [p];
  }
}

class Confirm extends Step {
  name = 'confirm';
  protected needs = 'attempt' as const;
  constructor(
    readonly pick: Pick,
    readonly otp: 'right' | 'wrong' | 'spaced',
    readonly times: number,
  ) {
    super();
  }
  params() {
    return `attempt #${this.pick.n}, ${this.otp} OTP${this.times > 1 ? ` × ${this.times}` : ''}`;
  }
  async act(m: Model, r: Real) {
    // Mostly attempts still open, as a payer has them; sometimes any, as a stale tab has them.
    const open = this.pick.prefer ? m.attempts.filter((a) => !a.ended) : [];
    const pool = open.length ? open : m.attempts;
    const attempt = pool[this.pick.n % pool.length];
    const otp = this.otp === 'right' ? attempt.otp : this.otp === 'spaced' ? ` ${attempt.otp} ` : attempt.otp === '000000' ? '000001' : '000000';
    const outcomes = [];
    for (let i = 0; i < this.times; i++) outcomes.push(await confirmStep(m, r, attempt, otp));
    this.detail = `${attempt.pidx} attempt ${m.attempts.indexOf(attempt)} → ${outcomes.join(', ')}`;
    return [M.payment(m, attempt.pidx)];
  }
}

class WrongMpin extends Step {
  name = 'wrong MPIN';
  constructor(
    readonly pick: Pick,
    readonly walletSlot: number,
    readonly mpin: string,
    readonly times: number,
  ) {
    super();
  }
  params() {
    return `#${this.pick.n}, wallet ${this.walletSlot}, MPIN ${JSON.stringify(this.mpin)} × ${this.times}`;
  }
  async act(m: Model, r: Real) {
    const p = pickPayment(m, this.pick, unpaid(m));
    const wallet = walletFor(r, p.environment, this.walletSlot);
    const mpin = this.mpin === wallet.mpin ? '9999' : this.mpin;
    this.detail = `${p.pidx} with ${wallet.mobile}`;
    for (let i = 0; i < this.times; i++) expect(await walletStep(m, r, p, { mobile: wallet.mobile, mpin })).toBeUndefined();
    return [p];
  }
}

class Cancel extends Step {
  name = 'cancel';
  constructor(readonly pick: Pick) {
    super();
  }
  params() {
    return `#${this.pick.n}`;
  }
  async act(m: Model, r: Real) {
    const p = pickPayment(m, this.pick, unpaid(m));
    const outcome = M.cancel(m, p);
    this.detail = `${p.pidx} → ${outcome}`;
    count(`cancel → ${outcome}`);
    const page = await portal(r, 'POST', `/pay/${p.pidx}/cancel`, { csrf_token: csrfFor(r, p.pidx) });
    if (outcome === 'canceled') expectCallback(page, p, 'User canceled');
    else expectPage(page, outcome);
    return [p];
  }
}

class Advance extends Step {
  name = 'advance clock';
  protected needs = 'nothing' as const;
  constructor(
    readonly seconds: number,
    readonly sweep: boolean,
  ) {
    super();
  }
  params() {
    return `${this.seconds} s${this.sweep ? ', sweep' : ''}`;
  }
  async act(m: Model, _r: Real) {
    t.clock.advance(this.seconds);
    M.advance(m, this.seconds);
    if (this.sweep) {
      await expirySweep(t.ctx, (error) => {
        throw error;
      }).runOnce();
      count('sweep');
    }
    // Whatever the clock expired is checked by the next full check; the payments still open now:
    return m.payments.filter((p) => p.status === 'Initiated' && p.expiresAt > m.now - this.seconds * 1000).slice(-6);
  }
}

type RefundKind = 'whole rest' | 'part' | 'exact rest' | 'over the rest' | 'invalid';
type Caller = 'own' | 'other environment' | 'other merchant';

class Refund extends Step {
  name = 'refund';
  constructor(
    readonly pick: Pick,
    readonly kind: RefundKind,
    readonly fraction: number,
    readonly caller: Caller,
    readonly invalidAmount: unknown,
  ) {
    super();
  }
  params() {
    return `#${this.pick.n}, ${this.kind}${this.kind === 'part' ? ` ${this.fraction.toFixed(2)}` : ''}, ${this.caller} key`;
  }
  async act(m: Model, r: Real) {
    const p = pickPayment(m, this.pick, (q) => q.status === 'Completed' || q.status === 'Partially refunded');
    const remaining = p.amount - p.refunded;
    const amount = { 'whole rest': undefined, part: Math.max(1, Math.floor(remaining * this.fraction)), 'exact rest': Math.max(1, remaining), 'over the rest': remaining + 1 + Math.floor(this.fraction * 1000), invalid: undefined }[this.kind];
    const caller = {
      own: { merchant: p.merchant, environment: p.environment },
      'other environment': { merchant: p.merchant, environment: p.environment === 'test' ? 'live' : 'test' },
      'other merchant': { merchant: (p.merchant + 1) % r.merchants.length, environment: p.environment },
    }[this.caller] as { merchant: number; environment: Environment };
    const transactionId = p.transactionId ?? `no-such-transaction-${p.pidx}`;
    const body = this.kind === 'invalid' ? { amount: this.invalidAmount } : amount === undefined ? undefined : { amount };
    const answer = await api(keyOf(r, caller.merchant, caller.environment), 'POST', `/api/merchant-transaction/${encodeURIComponent(transactionId)}/refund/`, body);
    if (this.kind === 'invalid') {
      this.detail = `${p.pidx} → invalid`;
      count('refund → invalid amount');
      expect(answer.status).toBe(400);
      expect(answer.body).toStrictEqual({ amount: [expect.any(String)], error_key: 'validation_error' });
      return [p];
    }
    const outcome = M.refund(m, caller, transactionId, amount);
    this.detail = `${p.pidx} ${amount ?? 'rest'} → ${outcome.kind}`;
    count(`refund → ${outcome.kind}${outcome.kind === 'refunded' ? ` (${p.status}${outcome.covered ? ', the sandbox covering' : ''})` : ''}`);
    if (outcome.kind === 'refunded') expect(answer).toStrictEqual({ status: 200, body: { detail: 'Transaction refund successful.' } });
    else if (outcome.kind === 'refused') expect(answer).toStrictEqual({ status: 400, body: { detail: expect.any(String), error_key: 'validation_error' } });
    else expect(answer).toStrictEqual({ status: 404, body: { detail: 'Not found.', error_key: 'validation_error' } });
    return [p];
  }
}

class Resolve extends Step {
  name = 'resolve';
  constructor(
    readonly pick: Pick,
    readonly resolution: 'Completed' | 'User canceled',
  ) {
    super();
  }
  params() {
    return `#${this.pick.n}, ${this.resolution}`;
  }
  async act(m: Model, _r: Real) {
    const p = pickPayment(m, this.pick, (q) => q.status === 'Pending');
    const outcome = M.resolve(m, p, this.resolution);
    this.detail = `${p.pidx} → ${outcome}`;
    count(`resolve → ${outcome}${outcome === 'resolved' ? ` ${this.resolution}` : ''}`);
    // The operator's CLI calls this function.
    const result = await resolvePayment(t.ctx, { actor: CLI_ACTOR, pidx: p.pidx, resolution: this.resolution }).then(
      (moved) => ({ moved: moved.status }),
      (error: unknown) => ({ refused: error instanceof AppError ? error.code : String(error) }),
    );
    expect(result).toEqual(outcome === 'resolved' ? { moved: this.resolution } : { refused: 'bad_request' });
    return [p];
  }
}

class Lookup extends Step {
  name = 'lookup';
  constructor(
    readonly pick: Pick,
    readonly caller: Caller,
  ) {
    super();
  }
  params() {
    return `#${this.pick.n}, ${this.caller} key`;
  }
  async act(m: Model, r: Real) {
    const p = pickPayment(m, this.pick, () => true);
    this.detail = p.pidx;
    if (this.caller === 'own') {
      await checkLookup(m, r, p);
      return [];
    }
    const key = this.caller === 'other environment' ? keyOf(r, p.merchant, p.environment === 'test' ? 'live' : 'test') : keyOf(r, (p.merchant + 1) % r.merchants.length, p.environment);
    expect(await api(key, 'POST', '/api/v2/epayment/lookup/', { pidx: p.pidx })).toStrictEqual({ status: 404, body: { detail: 'Not found.', error_key: 'validation_error' } });
    return [];
  }
}

class List extends Step {
  name = 'list';
  protected needs = 'nothing' as const;
  constructor(
    readonly merchant: number,
    readonly environment: Environment,
    readonly pageSize: number,
  ) {
    super();
  }
  params() {
    return `${this.merchant}, ${this.environment}, page_size ${this.pageSize}`;
  }
  async act(m: Model, r: Real) {
    await checkList(m, r, this.merchant, this.environment, this.pageSize);
    return [];
  }
}

class Topup extends Step {
  name = 'top up';
  protected needs = 'nothing' as const;
  constructor(readonly amount: number) {
    super();
  }
  params() {
    return `${this.amount}`;
  }
  async act(m: Model, r: Real) {
    await topupWallet(t.ctx, { mobile: r.live.mobile, amount: this.amount, environment: 'live' });
    M.topup(m, 'live', r.live.mobile, this.amount);
    return [];
  }
}

type PayoutAsk = 'all' | 'part' | 'over';

/** A payout through the API with the merchant's key: all that is available, part of it, or more. */
class RequestPayout extends Step {
  name = 'request payout';
  protected needs = 'nothing' as const;
  constructor(
    readonly merchant: number,
    readonly environment: Environment,
    readonly ask: PayoutAsk,
    readonly fraction: number,
  ) {
    super();
  }
  params() {
    return `${this.merchant}, ${this.environment}, ${this.ask}${this.ask === 'part' ? ` ${this.fraction.toFixed(2)}` : ''}`;
  }
  async act(m: Model, r: Real) {
    const { available } = M.balances(m, this.merchant, this.environment);
    const amount = { all: undefined, part: Math.max(1, Math.floor(available * this.fraction)), over: Math.max(1, available + 1) }[this.ask];
    const answer = await api(keyOf(r, this.merchant, this.environment), 'POST', '/api/v2/settlements/', amount === undefined ? {} : { amount });
    const outcome = M.requestPayout(m, this.merchant, this.environment, amount);
    this.detail = `${amount ?? 'all'} of ${available} → ${outcome.kind}`;
    count(`request payout → ${outcome.kind}`);
    if (outcome.kind === 'requested') {
      expect(answer).toMatchObject({ status: 201, body: { amount: outcome.amount, state: 'Requested' } });
      m.payouts.push({ idx: answer.body.idx, merchant: this.merchant, environment: this.environment, amount: outcome.amount, state: 'Requested' });
    } else if (outcome.kind === 'too_much') {
      expect(answer).toStrictEqual({ status: 400, body: { amount: [`Amount exceeds the available balance of ${outcome.available} paisa.`], error_key: 'validation_error' } });
    } else {
      expect(answer).toStrictEqual({ status: 400, body: { detail: 'No balance is available for a payout yet.', error_key: 'validation_error' } });
    }
    await checkBalances(m, r, this.merchant, this.environment);
    return [];
  }
}

/** The operator moves a payout of this run (the CLI's `payout mark` and the export call this function). */
class MovePayout extends Step {
  name = 'move payout';
  constructor(
    readonly n: number,
    readonly move: M.PayoutMoveName,
  ) {
    super();
  }
  check(m: Readonly<Model>) {
    return m.payouts.length > 0;
  }
  params() {
    return `#${this.n}, ${this.move}`;
  }
  async act(m: Model, r: Real) {
    const payout = m.payouts[this.n % m.payouts.length];
    const before = payout.state;
    const outcome = M.movePayout(payout, this.move);
    this.detail = `${payout.idx} ${before} → ${outcome === 'moved' ? payout.state : outcome}`;
    count(`move payout → ${this.move} ${outcome}`);
    const move = this.move === 'pay' ? { name: 'pay' as const, reference: `REF-${this.n}` } : this.move === 'fail' ? { name: 'fail' as const, reason: 'Closed account' } : { name: 'process' as const };
    const result = await markPayout(t.ctx, { actor: CLI_ACTOR, idx: payout.idx, move }).then(
      (moved) => ({ moved: moved.state }),
      (error: unknown) => ({ refused: error instanceof AppError ? error.code : String(error) }),
    );
    expect(result).toEqual(outcome === 'moved' ? { moved: payout.state } : { refused: outcome === 'sandbox_bank' ? 'conflict' : 'bad_request' });
    const { body } = await api(keyOf(r, payout.merchant, payout.environment), 'GET', `/api/v2/settlements/${payout.idx}/`);
    expect(body).toMatchObject({ state: payout.state, amount: payout.amount });
    expect(body.totals.brought_forward + body.totals.records_net - body.totals.carried_forward).toBe(payout.amount);
    await checkBalances(m, r, payout.merchant, payout.environment);
    return [];
  }
}

class SandboxBank extends Step {
  name = 'sandbox bank';
  protected needs = 'nothing' as const;
  params() {
    return '';
  }
  async act(m: Model, r: Real) {
    await runSandboxBank(t.ctx);
    M.sandboxBankRun(m);
    for (let i = 0; i < r.merchants.length; i++) await checkBalances(m, r, i, 'test');
    return [];
  }
}

/** The merchant chooses its automatic payouts, through the use case of the dashboard's form; some choices are refused. */
class ChooseSchedule extends Step {
  name = 'choose schedule';
  protected needs = 'nothing' as const;
  constructor(
    readonly merchant: number,
    readonly environment: Environment,
    readonly choice: M.ScheduleChoice,
  ) {
    super();
  }
  params() {
    const c = this.choice;
    return `${this.merchant}, ${this.environment}, ${c.frequency}${c.frequency === 'none' ? '' : `${c.frequency === 'weekly' ? ` on ${c.weekday}` : ''}, minimum ${c.minimum}`}`;
  }
  async act(m: Model, r: Real) {
    const c = this.choice;
    const choice = c.frequency === 'none' ? { frequency: c.frequency, minimumAmount: undefined } : { frequency: c.frequency, weekday: c.weekday, minimumAmount: Number.isNaN(c.minimum) ? undefined : c.minimum };
    const owner = { merchantId: r.merchants[this.merchant].merchant.id, environment: this.environment };
    const result = await choosePayoutSchedule(t.ctx, { ...owner, choice }).then(
      () => 'saved',
      (error: unknown) => (error instanceof AppError ? error.code : String(error)),
    );
    const outcome = M.chooseSchedule(m, this.merchant, this.environment, c);
    this.detail = `on ${M.dayOf(m, m.now)} → ${outcome}`;
    count(`choose schedule → ${c.frequency} ${outcome}`);
    expect(result).toBe(outcome === 'saved' ? 'saved' : 'validation_error');
    // What is stored, refused choices leaving the one before.
    const expected = M.scheduleOf(m, this.merchant, this.environment);
    const stored = await findPayoutSchedule(t.db, owner.merchantId, owner.environment);
    expect(stored).toEqual(expected && { merchantId: owner.merchantId, frequency: expected.frequency, weekday: expected.weekday, minimumAmount: expected.minimum, startsOn: expected.startsOn });
    return [];
  }
}

/** The schedule job at the model's clock, by one instance or by two at once; the payouts it makes join the model's. */
class RunSchedules extends Step {
  name = 'run schedules';
  protected needs = 'nothing' as const;
  constructor(readonly instances: number) {
    super();
  }
  params() {
    return `${this.instances} instance${this.instances > 1 ? 's' : ''}`;
  }
  async act(m: Model, r: Real) {
    const refusals: unknown[] = [];
    const made = await Promise.all(Array.from({ length: this.instances }, () => runPayoutSchedules(t.ctx, (_merchantId, error) => refusals.push(error))));
    const expected = M.runPayoutSchedules(m);
    this.detail = `on ${M.dayOf(m, m.now)} → ${expected.map((p) => `${p.merchant} ${p.environment} ${p.amount} for ${p.period}`).join(', ') || 'none'}`;
    count(`run schedules → ${expected.length ? 'payouts' : 'none'}`);
    expect(refusals).toEqual([]);
    expect(made.reduce((a, b) => a + b, 0)).toBe(expected.length);
    const known = new Set(m.payouts.map((p) => p.idx));
    for (let i = 0; i < r.merchants.length; i++) {
      for (const environment of ['test', 'live'] as const) {
        // Newest first: what the job made is on the first page, as the merchant's integration lists it.
        const { status, body } = await api(keyOf(r, i, environment), 'GET', '/api/v2/settlements/?page_size=20');
        expect(status).toBe(200);
        const fresh = (body.records as { idx: string; amount: number; state: string; requested_by: string }[]).filter((p) => !known.has(p.idx));
        const mine = expected.filter((p) => p.merchant === i && p.environment === environment);
        expect({ merchant: i, environment, payouts: fresh.map(({ amount, state, requested_by }) => ({ amount, state, requested_by })) }).toEqual({
          merchant: i,
          environment,
          payouts: mine.map(({ amount }) => ({ amount, state: 'Requested', requested_by: 'schedule' })),
        });
        for (const p of fresh) m.payouts.push({ idx: p.idx, merchant: i, environment, amount: p.amount, state: 'Requested' });
        await checkBalances(m, r, i, environment);
      }
    }
    // The periods claimed: one payout each, named by the period's first local day.
    const ids = r.merchants.map((x) => x.merchant.id);
    const claimed = await t.db.query<{ merchant_id: number; environment: Environment; period: string }>(
      `SELECT merchant_id, environment, to_char(period_start, 'YYYY-MM-DD') AS period FROM scheduled_payouts WHERE merchant_id = ANY($1)`,
      [ids],
    );
    expect(new Set(claimed.map((c) => `${ids.indexOf(Number(c.merchant_id))}:${c.environment}:${c.period}`))).toEqual(m.paidPeriods);
    expect(claimed.length).toBe(m.paidPeriods.size);
    return [];
  }
}

// Amounts: any, and some whose fee is exactly half a paisa at one of the merchants' rates.
const amountArb = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: 10, max: 40_000 }) },
  { weight: 1, arbitrary: fc.constantFrom(10, 20, 100, 200, 333, 1000, 1001, 9999, 100_000) },
);
const merchantArb = fc.integer({ min: 0, max: FEE_BPS.length - 1 });
const environmentArb = fc.constantFrom<Environment>('test', 'test', 'live');
const callerArb = fc.constantFrom<Caller>('own', 'own', 'own', 'own', 'other environment', 'other merchant');

const initiateArb = fc
  .tuple(merchantArb, environmentArb, amountArb, fc.boolean(), fc.nat(ORDER_SLOTS - 1), fc.oneof({ weight: 6, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.constantFrom<Invalid>('amount_low', 'amount_text', 'breakdown', 'blank_name', 'bad_url') }))
  .map(([merchant, env, amount, asString, slot, invalid]) => new Initiate(merchant, env, amount, asString, slot, invalid));
const payArb = fc.tuple(pickArb, fc.nat()).map(([pick, slot]) => new Pay(pick, slot));
const startArb = fc.tuple(pickArb, fc.nat()).map(([pick, slot]) => new StartAttempt(pick, slot));
// An answer the provider cannot give yet holds the payment only on a return the provider signed
// (eSewa's, Fonepay's); after Khalti's or connectIPS's the payment stays payable and the job settles
// the attempt when its backoff says, which this model does not follow: those two are paid or
// canceled here (provider-payments.test.ts and the fault simulator take them through the job).
const signsReturns = (provider: M.Provider) => provider === 'esewa' || provider === 'fonepay';
const providerArb = fc
  .tuple(pickArb, fc.constantFrom<M.Provider>(...providerNames), fc.constantFrom<M.ProviderOutcome>('paid', 'paid', 'canceled', 'pending_then_paid', 'never_answers'))
  .map(([pick, provider, outcome]) => new PayThroughProvider(pick, outcome === 'paid' || outcome === 'canceled' || signsReturns(provider) ? provider : 'esewa', outcome));
const reconcileArb = fc.constant(null).map(() => new Reconcile());
const confirmArb = fc
  .tuple(pickArb, fc.constantFrom<'right' | 'wrong' | 'spaced'>('right', 'right', 'wrong', 'spaced'), fc.integer({ min: 1, max: 3 }))
  .map(([pick, otp, times]) => new Confirm(pick, otp, otp === 'wrong' ? times : 1));
const wrongMpinArb = fc
  .tuple(pickArb, fc.nat(), fc.constantFrom('0000', '1234', '0000', '11', 'abcd', '11111'), fc.integer({ min: 1, max: 6 }))
  .map(([pick, slot, mpin, times]) => new WrongMpin(pick, slot, mpin, times));
const cancelArb = pickArb.map((pick) => new Cancel(pick));
const advanceArb = fc.tuple(fc.constantFrom(30, 240, 301, 900, 1800, ttlSeconds + 1), fc.boolean()).map(([seconds, sweep]) => new Advance(seconds, sweep));
/** Hours and days, so that the schedules' periods change during a run. */
const HOUR = 3600;
const daysArb = fc.tuple(fc.constantFrom(3 * HOUR, 9 * HOUR, 24 * HOUR, 29 * HOUR, 2 * 24 * HOUR, 4 * 24 * HOUR), fc.boolean()).map(([seconds, sweep]) => new Advance(seconds, sweep));
const refundArb = fc
  .tuple(
    pickArb,
    fc.constantFrom<RefundKind>('whole rest', 'part', 'part', 'exact rest', 'over the rest', 'invalid'),
    fc.double({ min: 0, max: 1, noNaN: true }),
    callerArb,
    fc.constantFrom(0, -5, 1.5, 'abc', null, '1e3', true),
  )
  .map(([pick, kind, fraction, caller, invalid]) => new Refund(pick, kind, fraction, caller, invalid));
const resolveArb = fc.tuple(pickArb, fc.constantFrom<'Completed' | 'User canceled'>('Completed', 'User canceled')).map(([pick, resolution]) => new Resolve(pick, resolution));
const readArb = fc.oneof(
  { weight: 2, arbitrary: pickArb.map((pick) => new Open(pick)) },
  { weight: 2, arbitrary: fc.tuple(pickArb, callerArb).map(([pick, caller]) => new Lookup(pick, caller)) },
  { weight: 2, arbitrary: fc.tuple(merchantArb, environmentArb, fc.constantFrom(1, 2, 3, 7, 20, 100)).map(([merchant, env, size]) => new List(merchant, env, size)) },
  { weight: 1, arbitrary: fc.integer({ min: 1000, max: 30_000 }).map((amount) => new Topup(amount)) },
);

const requestPayoutArb = fc
  .tuple(merchantArb, environmentArb, fc.constantFrom<PayoutAsk>('all', 'part', 'part', 'over'), fc.double({ min: 0, max: 1, noNaN: true }))
  .map(([merchant, env, ask, fraction]) => new RequestPayout(merchant, env, ask, fraction));
const payoutArb = fc.oneof(
  { weight: 3, arbitrary: fc.tuple(fc.nat(), fc.constantFrom<M.PayoutMoveName>('process', 'pay', 'pay', 'fail')).map(([n, move]) => new MovePayout(n, move)) },
  { weight: 1, arbitrary: fc.constant(null).map(() => new SandboxBank()) },
);

// Mostly reachable minimums, so that schedules pay; sometimes one no run reaches.
const minimumArb = fc.oneof({ weight: 3, arbitrary: fc.constant(0) }, { weight: 3, arbitrary: fc.integer({ min: 1, max: 20_000 }) }, { weight: 1, arbitrary: fc.constantFrom(1, 60_000, 1_000_000) });
const scheduleChoiceArb: fc.Arbitrary<M.ScheduleChoice> = fc.oneof(
  { weight: 1, arbitrary: fc.constant({ frequency: 'none' as const }) },
  { weight: 2, arbitrary: minimumArb.map((minimum) => ({ frequency: 'daily' as const, weekday: 0, minimum })) },
  { weight: 2, arbitrary: fc.tuple(fc.nat(6), minimumArb).map(([weekday, minimum]) => ({ frequency: 'weekly' as const, weekday, minimum })) },
  // Refused: no day of the week, a negative minimum, a minimum that is not an amount.
  { weight: 1, arbitrary: fc.constantFrom<M.ScheduleChoice>({ frequency: 'weekly', weekday: 7, minimum: 0 }, { frequency: 'daily', weekday: 0, minimum: -1 }, { frequency: 'weekly', weekday: 2, minimum: Number.NaN }) },
);
const chooseScheduleArb = fc.tuple(merchantArb, environmentArb, scheduleChoiceArb).map(([merchant, env, choice]) => new ChooseSchedule(merchant, env, choice));
const runSchedulesArb = fc.constantFrom(1, 1, 2).map((instances) => new RunSchedules(instances));

/** fc.commands picks uniformly among its arbitraries: an arbitrary listed n times weighs n. */
const weighted = (entries: [fc.Arbitrary<Step>, number][]) => entries.flatMap(([arb, weight]) => Array.from({ length: weight }, () => arb));

const commandArbs = weighted([
  [initiateArb, 4],
  [payArb, 4],
  [providerArb, 3],
  [reconcileArb, 1],
  [startArb, 2],
  [confirmArb, 3],
  [wrongMpinArb, 1],
  [cancelArb, 1],
  [advanceArb, 2],
  [refundArb, 4],
  [resolveArb, 2],
  [readArb, 2],
  [requestPayoutArb, 2],
  [payoutArb, 2],
  [chooseScheduleArb, 2],
  [runSchedulesArb, 2],
  [daysArb, 1],
]);

let runs = 0;
/** The merchants of the run before: their schedules are turned off, so that the job pays only this run's. */
let previous: CreatedMerchant[] = [];

async function setup(): Promise<{ model: Model; real: Real }> {
  runs += 1;
  for (const created of previous) {
    for (const environment of ['test', 'live'] as const) await choosePayoutSchedule(t.ctx, { merchantId: created.merchant.id, environment, choice: { frequency: 'none', minimumAmount: undefined } });
  }
  const merchants = [];
  for (const fee_bps of FEE_BPS) merchants.push(await newMerchant(t.ctx, { fee_bps }));
  const live = await operatorWallet(t.ctx, { balance: LIVE_FUNDING, mpin: '2468' });
  for (const created of merchants) {
    await saveBankAccount(t.db, created.merchant.id, { bankName: 'Nabil Bank', branch: 'Thamel', accountName: created.merchant.name, accountNumber: '0012345678901', updatedAt: t.clock.now() });
  }
  previous = merchants;
  const model = M.newModel({ now: t.clock.now().getTime(), timeZone: t.ctx.config.timeZone, ttlSeconds, feeBps: FEE_BPS, holdHours: HOLD_HOURS });
  M.addWallet(model, { mobile: live.mobile, environment: 'live', sandbox: false, mpin: live.mpin, balance: LIVE_FUNDING });
  const real: Real = { id: `run${runs}-${randomBytes(4).toString('hex')}`, merchants, live, nonce: randomBytes(16).toString('base64url'), steps: 0 };
  return { model, real };
}

describe('the payment lifecycle against its model', () => {
  it(
    `holds over ${STEPS} random steps, in runs of up to ${MAX_COMMANDS} commands`,
    async () => {
      const started = Date.now();
      // One fast-check run per seed, until the steps are done; a failure names its seed (MODEL_SEED replays that run alone).
      const baseSeed = SEED ?? Math.floor(Math.random() * 0x7fffffff);
      for (let i = 0; SEED !== undefined ? i < 1 : totalSteps < STEPS; i++) {
        await fc.assert(
          fc.asyncProperty(fc.commands(commandArbs, { maxCommands: MAX_COMMANDS, size: 'max' }), async (commands) => {
            let state: { model: Model; real: Real } | undefined;
            await fc.asyncModelRun(async () => (state = await setup()), commands);
            // The end of every run: everything once more, whatever the step count.
            await fullCheck(state!.model, state!.real);
          }),
          { numRuns: 1, seed: (baseSeed + i) % 0x7fffffff, endOnFailure: !SHRINK, verbose: 1 },
        );
      }
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      console.log(`${totalSteps} steps in ${runs} runs, ${seconds} s (seeds from ${baseSeed})\n${[...stats].sort().map(([k, v]) => `  ${k}: ${v}`).join('\n')}`);
      expect(totalSteps).toBeGreaterThanOrEqual(SEED === undefined ? STEPS : 0);
    },
    Math.max(10 * 60_000, STEPS * 500),
  );
});
