// A small, pure model of the contract's payment lifecycle (sections 4 to 6) and of payouts (section
// 10: balances, requests, the operator's moves, the sandbox bank, automatic schedules), written from
// the contract and the docs and not from the code: what every operation should do to a payment, its
// records and the money, and what the payer, the merchant's server and the operator should be answered.
// The model-based test runs random operations against the real service and this model side by side.

// Which providers there are, and the list's name for a payment through each, are the registry's.
import { acceptsAmount, recordTypeOf, type ProviderName, type ProviderRecordType } from '../../src/providers/registry.js';

export type Environment = 'test' | 'live';
export type Status = 'Initiated' | 'Pending' | 'Completed' | 'Partially refunded' | 'Refunded' | 'Expired' | 'User canceled';
export type RecordState = 'Completed' | 'Confirmed' | 'Canceled';

// Contract section 5.
export const SANDBOX = { mpin: '1111', otp: '987654', pendingMobile: '9800000007', mobiles: ['9800000000', '9800000001', '9800000002', '9800000003', '9800000004', '9800000005', '9800000007'] };
export const MAX_MPIN_FAILURES = 5;
export const MPIN_LOCK_MS = 15 * 60_000;
export const MAX_OTP_FAILURES = 3;
export const OTP_TTL_MS = 5 * 60_000;

/** Statuses in which a payment holds or took the money of its order: at most one per order. */
const HOLDS_ORDER: readonly Status[] = ['Pending', 'Completed', 'Partially refunded', 'Refunded'];
/** Statuses whose lookup shows the transaction id (specification 2.4). */
const SHOWS_TRANSACTION: readonly Status[] = ['Completed', 'Partially refunded', 'Refunded'];

export interface ModelPayment {
  pidx: string;
  merchant: number;
  environment: Environment;
  orderId: string;
  amount: number;
  fee: number;
  expiresAt: number;
  /** As stored: never `Expired`, which is derived from the time (and only persisted by the sweep). */
  status: Exclude<Status, 'Expired'>;
  transactionId?: string;
  payer?: string;
  refunded: number;
  /** Paid (or held) through a provider (contract section 13): no wallet of Bhuktani's moves. */
  paidThrough?: Provider;
  /** Held Pending on a provider's unknown answer: what the provider will say when asked again. */
  heldOn?: 'pending_then_paid' | 'never_answers';
}

export type Provider = ProviderName;
/** The outcomes a sandbox provider's simulator offers the payer (docs/providers.md). */
export type ProviderOutcome = 'paid' | 'canceled' | 'pending_then_paid' | 'never_answers';

export interface ModelRecord {
  seq: number;
  type: 'Wallet payment' | 'Refund' | ProviderRecordType;
  pidx: string;
  merchant: number;
  environment: Environment;
  orderId: string;
  amount: number;
  feeAmount: number;
  state: RecordState;
  refunded: boolean;
  at: number;
  /** The payment record's idx is its transaction id; a refund's idx is not known in advance. */
  idx?: string;
  payer: string;
}

export interface ModelWallet {
  mobile: string;
  environment: Environment;
  sandbox: boolean;
  mpin: string;
  /** Live wallets: the whole balance. Sandbox wallets never run dry, so only `net` is followed. */
  balance: number;
  /** Money moved by this model's payments and refunds (payments negative). */
  net: number;
}

export interface ModelAttempt {
  token: string;
  pidx: string;
  mobile: string;
  otp: string;
  otpExpiresAt: number;
  otpFailures: number;
  ended: boolean;
}

interface MpinState {
  failures: number;
  lockedUntil: number | null;
}

export type PayoutState = 'Requested' | 'Processing' | 'Paid' | 'Failed';

/** Contract section 10. */
export interface ModelPayout {
  idx: string;
  merchant: number;
  environment: Environment;
  amount: number;
  state: PayoutState;
}

/** A merchant's automatic payouts in one environment (contract section 10, docs/dashboard.md). */
export interface ModelSchedule {
  frequency: 'daily' | 'weekly';
  /** 0 (Sunday) … 6 (Saturday); only for weekly. */
  weekday: number | null;
  /** Paisa: nothing is paid out while less is available. */
  minimum: number;
  /** The local day it was saved: no period starting before it is due. */
  startsOn: string;
}

export interface Model {
  now: number;
  /** TIME_ZONE: the merchant's calendar days, which name the schedules' periods. */
  timeZone: string;
  ttlMs: number;
  /** SETTLEMENT_HOLD_HOURS, in ms: a payment's net is pending this long after its record. */
  holdMs: number;
  payouts: ModelPayout[];
  /** What the sandbox covered of test refunds beyond a merchant's balance (issue 24), one entry per covered refund. */
  covers: { merchant: number; amount: number }[];
  /** By owner (`merchant:environment`). */
  schedules: Map<string, ModelSchedule>;
  /** `merchant:environment:period` of every period a scheduled payout was made for: one payout each, ever. */
  paidPeriods: Set<string>;
  merchants: { feeBps: number }[];
  payments: ModelPayment[];
  records: ModelRecord[];
  wallets: Map<string, ModelWallet>;
  attempts: ModelAttempt[];
  mpin: Map<string, MpinState>;
  nextSeq: number;
}

export function newModel(options: { now: number; timeZone: string; ttlSeconds: number; feeBps: number[]; holdHours: number }): Model {
  const model: Model = {
    now: options.now,
    timeZone: options.timeZone,
    ttlMs: options.ttlSeconds * 1000,
    holdMs: options.holdHours * 3_600_000,
    payouts: [],
    covers: [],
    schedules: new Map(),
    paidPeriods: new Set(),
    merchants: options.feeBps.map((feeBps) => ({ feeBps })),
    payments: [],
    records: [],
    wallets: new Map(),
    attempts: [],
    mpin: new Map(),
    nextSeq: 0,
  };
  for (const mobile of SANDBOX.mobiles) addWallet(model, { mobile, environment: 'test', sandbox: true, mpin: SANDBOX.mpin, balance: 0 });
  return model;
}

const walletKey = (environment: Environment, mobile: string) => `${environment}:${mobile}`;

export function addWallet(model: Model, wallet: Omit<ModelWallet, 'net'>): void {
  model.wallets.set(walletKey(wallet.environment, wallet.mobile), { ...wallet, net: 0 });
}

export function findWallet(model: Model, environment: Environment, mobile: string): ModelWallet | undefined {
  return model.wallets.get(walletKey(environment, mobile));
}

export function topup(model: Model, environment: Environment, mobile: string, amount: number): void {
  findWallet(model, environment, mobile)!.balance += amount;
}

export function payment(model: Model, pidx: string): ModelPayment {
  const found = model.payments.find((p) => p.pidx === pidx);
  if (!found) throw new Error(`model: no payment ${pidx}`);
  return found;
}

/** round-half-up(amount × fee_bps / 10000), in whole paisa (contract section 4). */
export function feeFor(amount: number, feeBps: number): number {
  return Number((BigInt(amount) * BigInt(feeBps) + 5000n) / 10000n);
}

export function effectiveStatus(p: ModelPayment, now: number): Status {
  return p.status === 'Initiated' && p.expiresAt <= now ? 'Expired' : p.status;
}

function orderTakenElsewhere(model: Model, p: ModelPayment): boolean {
  return model.payments.some(
    (q) => q.pidx !== p.pidx && q.merchant === p.merchant && q.environment === p.environment && q.orderId === p.orderId && HOLDS_ORDER.includes(q.status),
  );
}

/** The callback status of a payment whose attempt has ended (from its stored status). */
function finishedAs(p: ModelPayment): 'Completed' | 'Pending' | 'User canceled' | undefined {
  if (p.status === 'Completed' || p.status === 'Partially refunded' || p.status === 'Refunded') return 'Completed';
  if (p.status === 'Pending' || p.status === 'User canceled') return p.status;
  return undefined;
}

// ---- operations -------------------------------------------------------------------------------

export function initiate(model: Model, input: { pidx: string; merchant: number; environment: Environment; orderId: string; amount: number }): ModelPayment {
  const p: ModelPayment = {
    pidx: input.pidx,
    merchant: input.merchant,
    environment: input.environment,
    orderId: input.orderId,
    amount: input.amount,
    fee: feeFor(input.amount, model.merchants[input.merchant].feeBps),
    expiresAt: model.now + model.ttlMs,
    status: 'Initiated',
    refunded: 0,
  };
  model.payments.push(p);
  return p;
}

export function advance(model: Model, seconds: number): void {
  model.now += seconds * 1000;
}

/** What the hosted page shows when opened (GET /pay/{pidx}). */
export type PageOutcome = 'checkout' | 'expired' | 'finished' | 'order_paid';

export function openPage(model: Model, p: ModelPayment): PageOutcome {
  if (effectiveStatus(p, model.now) === 'Expired') return 'expired';
  if (finishedAs(p)) return 'finished';
  if (orderTakenElsewhere(model, p)) return 'order_paid';
  return 'checkout';
}

/** Why a payment cannot be paid now, or undefined when it can. */
function unpayable(model: Model, p: ModelPayment): Exclude<PageOutcome, 'checkout'> | undefined {
  const status = effectiveStatus(p, model.now);
  if (status === 'Expired') return 'expired';
  if (status !== 'Initiated') return 'finished';
  if (orderTakenElsewhere(model, p)) return 'order_paid';
  return undefined;
}

export type WalletOutcome =
  | { kind: 'otp_sent' }
  | { kind: Exclude<PageOutcome, 'checkout'> }
  | { kind: 'invalid_input' | 'unknown_wallet' | 'wrong_mpin' | 'wallet_locked' | 'insufficient_balance' };

/** Step one on the hosted page: mobile and MPIN. Counts wrong MPINs (a sandbox lock holds only for this payment). */
export function walletStep(model: Model, p: ModelPayment, mobile: string, mpin: string): WalletOutcome {
  const reason = unpayable(model, p);
  if (reason) return { kind: reason };
  if (!/^9\d{9}$/.test(mobile) || !/^\d{4}$/.test(mpin)) return { kind: 'invalid_input' };
  const wallet = findWallet(model, p.environment, mobile);
  if (!wallet) return { kind: 'unknown_wallet' };
  const scope = `${walletKey(wallet.environment, wallet.mobile)}:${wallet.sandbox ? p.pidx : ''}`;
  const state = model.mpin.get(scope) ?? { failures: 0, lockedUntil: null };
  const locked = (s: MpinState) => s.lockedUntil !== null && s.lockedUntil > model.now;
  if (locked(state)) return { kind: 'wallet_locked' };
  if (mpin !== wallet.mpin) {
    const lockOver = state.lockedUntil !== null && state.lockedUntil <= model.now;
    const failures = lockOver ? 1 : state.failures + 1;
    const next: MpinState = { failures, lockedUntil: lockOver ? null : failures >= MAX_MPIN_FAILURES ? model.now + MPIN_LOCK_MS : state.lockedUntil };
    model.mpin.set(scope, next);
    return { kind: locked(next) ? 'wallet_locked' : 'wrong_mpin' };
  }
  model.mpin.delete(scope);
  if (!wallet.sandbox && wallet.balance < p.amount) return { kind: 'insufficient_balance' };
  return { kind: 'otp_sent' };
}

export function startAttempt(model: Model, attempt: Omit<ModelAttempt, 'otpExpiresAt' | 'otpFailures' | 'ended'>): ModelAttempt {
  const started = { ...attempt, otpExpiresAt: model.now + OTP_TTL_MS, otpFailures: 0, ended: false };
  model.attempts.push(started);
  return started;
}

export type ConfirmOutcome =
  | { kind: 'paid'; status: 'Completed' | 'Pending' }
  /** The same payer's attempt of a payment it already paid: the same result again, nothing moves. */
  | { kind: 'again'; status: 'Completed' | 'Pending' }
  | { kind: Exclude<PageOutcome, 'checkout'> }
  | { kind: 'attempt_ended' | 'otp_expired' | 'wrong_otp' | 'insufficient_balance' };

/** Why the attempt cannot pay with `otp`, if it cannot: an expired OTP ends it, a wrong one counts. */
function attemptRefusal(model: Model, attempt: ModelAttempt, otp: string): 'attempt_ended' | 'otp_expired' | 'wrong_otp' | undefined {
  if (attempt.ended) return 'attempt_ended';
  if (attempt.otpExpiresAt <= model.now) {
    attempt.ended = true;
    return 'otp_expired';
  }
  if (otp.trim() === attempt.otp) return undefined;
  attempt.otpFailures += 1;
  if (attempt.otpFailures >= MAX_OTP_FAILURES) attempt.ended = true;
  return attempt.ended ? 'attempt_ended' : 'wrong_otp';
}

/** Step two: the OTP. A right one pays (or, for the sandbox's pending wallet, holds) the payment. */
/** A payment it pays gets its transaction id from the callback afterwards (see `setTransactionId`). */
export function confirmStep(model: Model, attempt: ModelAttempt, otp: string): ConfirmOutcome {
  const p = payment(model, attempt.pidx);
  const wallet = findWallet(model, p.environment, attempt.mobile)!;
  const finished = finishedAs(p);
  if (finished && finished !== 'User canceled' && p.payer === wallet.mobile) return { kind: 'again', status: finished };
  const reason = unpayable(model, p);
  if (reason && reason !== 'order_paid') return { kind: reason };
  // An order paid through another payment is found only when this one is written, after its attempt
  // and OTP are checked: an expired OTP still ends the attempt and a wrong one still counts, and the
  // page says the order is paid. A right OTP leaves the attempt open (the refused write changes nothing).
  const refused = attemptRefusal(model, attempt, otp);
  const kind = reason ?? refused;
  if (kind) return { kind };
  const hold = wallet.sandbox && wallet.mobile === SANDBOX.pendingMobile;
  if (!hold && !wallet.sandbox && wallet.balance < p.amount) {
    attempt.ended = true;
    return { kind: 'insufficient_balance' };
  }
  attempt.ended = true;
  p.status = hold ? 'Pending' : 'Completed';
  p.payer = wallet.mobile;
  addRecord(model, { type: 'Wallet payment', p, amount: p.amount, feeAmount: p.fee, state: hold ? 'Confirmed' : 'Completed' });
  if (!hold) movePayment(model, p);
  return { kind: 'paid', status: p.status as 'Completed' | 'Pending' };
}

/** Sets the transaction id the service gave (read from the callback) on a payment just paid. */
export function setTransactionId(model: Model, p: ModelPayment, transactionId: string): void {
  const record = model.records.find((r) => r.type !== 'Refund' && r.pidx === p.pidx)!;
  p.transactionId = transactionId;
  record.idx = transactionId;
}

function addRecord(model: Model, r: { type: ModelRecord['type']; p: ModelPayment; amount: number; feeAmount: number; state: RecordState; idx?: string }) {
  model.records.push({
    seq: model.nextSeq++,
    type: r.type,
    pidx: r.p.pidx,
    merchant: r.p.merchant,
    environment: r.p.environment,
    orderId: r.p.orderId,
    amount: r.amount,
    feeAmount: r.feeAmount,
    state: r.state,
    refunded: false,
    at: model.now,
    idx: r.idx,
    payer: r.p.payer ?? '',
  });
}

export type ProviderPayOutcome = { kind: Exclude<PageOutcome, 'checkout'> } | { kind: 'unavailable' } | { kind: 'back' } | { kind: 'paid'; status: 'Completed' | 'Pending' };

/**
 * The payer picks a provider on the hosted page and, on its page, `outcome` (contract section 13):
 * paid completes the payment; canceled leaves it payable (the payer is back on the hosted page); an
 * answer the provider cannot give yet, on a return the provider signed, holds it Pending, as a
 * Confirmed record, no money moved.
 */
export function providerPay(model: Model, p: ModelPayment, provider: Provider, outcome: ProviderOutcome): ProviderPayOutcome {
  const reason = unpayable(model, p);
  if (reason) return { kind: reason };
  // Live has no provider until the operator sets one up; the sandbox has all three.
  if (p.environment === 'live') return { kind: 'unavailable' };
  // Each provider is offered only for the amounts it takes (Khalti from Rs 10, Fonepay from Rs 1).
  if (!acceptsAmount(provider, p.amount)) return { kind: 'unavailable' };
  if (outcome === 'canceled') return { kind: 'back' };
  const paid = outcome === 'paid';
  p.status = paid ? 'Completed' : 'Pending';
  p.paidThrough = provider;
  if (!paid) p.heldOn = outcome;
  addRecord(model, { type: recordTypeOf(provider), p, amount: p.amount, feeAmount: p.fee, state: paid ? 'Completed' : 'Confirmed' });
  return { kind: 'paid', status: p.status as 'Completed' | 'Pending' };
}

/** The reconciliation job asks the providers again: a payment held on "pending, then paid" completes. */
export function reconcileProviders(model: Model): ModelPayment[] {
  const completed = model.payments.filter((p) => p.status === 'Pending' && p.heldOn === 'pending_then_paid');
  for (const p of completed) {
    p.status = 'Completed';
    p.heldOn = undefined;
    model.records.find((r) => r.type !== 'Refund' && r.pidx === p.pidx)!.state = 'Completed';
  }
  return completed;
}

/** The payment journal: the payer pays the amount. The merchant's and fee shares are derived. */
function movePayment(model: Model, p: ModelPayment) {
  if (p.paidThrough) return;
  const wallet = findWallet(model, p.environment, p.payer!)!;
  wallet.net -= p.amount;
  if (!wallet.sandbox) wallet.balance -= p.amount;
}

export type CancelOutcome = 'canceled' | Exclude<PageOutcome, 'checkout' | 'order_paid'>;

/** The payer cancels on the hosted page: only an Initiated, unexpired payment; a second cancel answers the same. */
export function cancel(model: Model, p: ModelPayment): CancelOutcome {
  if (p.status === 'User canceled') return 'canceled';
  const status = effectiveStatus(p, model.now);
  if (status === 'Expired') return 'expired';
  if (status !== 'Initiated') return 'finished';
  p.status = 'User canceled';
  return 'canceled';
}

export type RefundOutcome = { kind: 'refunded'; amount: number; covered: number } | { kind: 'refused' } | { kind: 'not_found' };

/** A refund through the API with the key of `merchant`'s `environment`; no amount: the whole rest (else at least 1). */
export function refund(model: Model, caller: { merchant: number; environment: Environment }, transactionId: string, requested: number | undefined): RefundOutcome {
  const p = model.payments.find((q) => q.transactionId === transactionId && q.merchant === caller.merchant && q.environment === caller.environment);
  if (!p) return { kind: 'not_found' };
  if (p.status !== 'Completed' && p.status !== 'Partially refunded') return { kind: 'refused' };
  const remaining = p.amount - p.refunded;
  const amount = requested ?? remaining;
  if (amount > remaining) return { kind: 'refused' };
  // Contract section 10: a refund draws on the merchant's balance, never below zero. In live what it
  // lacks is refused; in test the sandbox covers it (issue 24), so the balance ends at zero.
  const lacking = amount - merchantBalance(model, p.merchant, p.environment);
  if (lacking > 0 && p.environment === 'live') return { kind: 'refused' };
  if (lacking > 0) model.covers.push({ merchant: p.merchant, amount: lacking });
  p.refunded += amount;
  p.status = p.refunded === p.amount ? 'Refunded' : 'Partially refunded';
  // A provider payment's refund is owed back through the provider: no wallet of Bhuktani's moves.
  const wallet = p.paidThrough ? undefined : findWallet(model, p.environment, p.payer!)!;
  if (wallet) wallet.net += amount;
  if (wallet && !wallet.sandbox) wallet.balance += amount;
  model.records.find((r) => r.type !== 'Refund' && r.pidx === p.pidx)!.refunded = true;
  addRecord(model, { type: 'Refund', p, amount, feeAmount: 0, state: 'Completed' });
  return { kind: 'refunded', amount, covered: Math.max(0, lacking) };
}

/** The operator decides a Pending payment; anything else is refused. */
export function resolve(model: Model, p: ModelPayment, resolution: 'Completed' | 'User canceled'): 'resolved' | 'refused' {
  if (p.status !== 'Pending') return 'refused';
  p.status = resolution;
  p.heldOn = undefined;
  const record = model.records.find((r) => r.type !== 'Refund' && r.pidx === p.pidx)!;
  record.state = resolution === 'Completed' ? 'Completed' : 'Canceled';
  if (resolution === 'Completed') movePayment(model, p);
  return 'resolved';
}

// ---- what the service should report -----------------------------------------------------------

export interface ExpectedLookup {
  httpStatus: 200 | 400;
  body: { pidx: string; total_amount: number; status: Status; transaction_id: string | null; fee: number; refunded: boolean; refunded_amount: number; purchase_order_id: string };
}

export function expectedLookup(model: Model, p: ModelPayment): ExpectedLookup {
  const status = effectiveStatus(p, model.now);
  return {
    httpStatus: status === 'Expired' || status === 'User canceled' ? 400 : 200,
    body: {
      pidx: p.pidx,
      total_amount: p.amount,
      status,
      transaction_id: SHOWS_TRANSACTION.includes(status) ? p.transactionId! : null,
      fee: p.fee,
      refunded: p.refunded > 0,
      refunded_amount: p.refunded,
      purchase_order_id: p.orderId,
    },
  };
}

/** The merchant's records in one environment (optionally one order's), newest first. */
export function expectedRecords(model: Model, merchant: number, environment: Environment, orderId?: string): ModelRecord[] {
  return model.records
    .filter((r) => r.merchant === merchant && r.environment === environment && (orderId === undefined || r.orderId === orderId))
    .sort((a, b) => b.at - a.at || b.seq - a.seq);
}

/** What the merchant's ledger account holds: completed payments less fees, less refunds, less payouts not failed, plus the sandbox's covers (test). */
export function merchantBalance(model: Model, merchant: number, environment: Environment): number {
  let balance = 0;
  for (const p of model.payments) {
    if (p.merchant !== merchant || p.environment !== environment) continue;
    if (p.status === 'Completed' || p.status === 'Partially refunded' || p.status === 'Refunded') balance += p.amount - p.fee - p.refunded;
  }
  for (const payout of model.payouts) {
    if (payout.merchant === merchant && payout.environment === environment && payout.state !== 'Failed') balance -= payout.amount;
  }
  if (environment === 'test') for (const cover of model.covers) if (cover.merchant === merchant) balance += cover.amount;
  return balance;
}

/**
 * Contract section 10: the net of payments recorded inside the hold is pending (never more than the
 * balance: refunds draw on the whole of it), the rest available; clearing is in payouts not yet paid.
 */
export function balances(model: Model, merchant: number, environment: Environment): { pending: number; available: number; clearing: number } {
  const total = merchantBalance(model, merchant, environment);
  const recent = model.records
    .filter((r) => r.merchant === merchant && r.environment === environment && r.type !== 'Refund' && r.state === 'Completed' && r.at > model.now - model.holdMs)
    .reduce((sum, r) => sum + r.amount - r.feeAmount, 0);
  const pending = Math.max(0, Math.min(recent, total));
  const clearing = model.payouts
    .filter((p) => p.merchant === merchant && p.environment === environment && (p.state === 'Requested' || p.state === 'Processing'))
    .reduce((sum, p) => sum + p.amount, 0);
  return { pending, available: total - pending, clearing };
}

export type PayoutOutcome = { kind: 'requested'; amount: number } | { kind: 'nothing_available' } | { kind: 'too_much'; available: number };

/** A payout request for `amount` (undefined: all that is available). The caller adds the payout with the idx the service gave. */
export function requestPayout(model: Model, merchant: number, environment: Environment, amount: number | undefined): PayoutOutcome {
  const { available } = balances(model, merchant, environment);
  if (available <= 0) return { kind: 'nothing_available' };
  const asked = amount ?? available;
  if (asked > available) return { kind: 'too_much', available };
  return { kind: 'requested', amount: asked };
}

const payoutMoves = {
  process: { from: ['Requested'], to: 'Processing' },
  pay: { from: ['Processing'], to: 'Paid' },
  fail: { from: ['Requested', 'Processing'], to: 'Failed' },
} as const satisfies Record<string, { from: readonly PayoutState[]; to: PayoutState }>;
export type PayoutMoveName = keyof typeof payoutMoves;

/** An operator's move: test payouts are the sandbox bank's; a live one moves when its state allows it, refused otherwise. */
export function movePayout(payout: ModelPayout, move: PayoutMoveName): 'moved' | 'refused' | 'sandbox_bank' {
  if (payout.environment === 'test') return 'sandbox_bank';
  if (!(payoutMoves[move].from as readonly PayoutState[]).includes(payout.state)) return 'refused';
  payout.state = payoutMoves[move].to;
  return 'moved';
}

/** The sandbox bank's run: test payouts already Processing are paid, then the Requested ones go to Processing. */
export function sandboxBankRun(model: Model): void {
  const test = model.payouts.filter((p) => p.environment === 'test');
  const processing = test.filter((p) => p.state === 'Processing');
  const requested = test.filter((p) => p.state === 'Requested');
  for (const p of processing) p.state = 'Paid';
  for (const p of requested) p.state = 'Processing';
}

// ---- automatic payouts ------------------------------------------------------------------------

export type ScheduleChoice = { frequency: 'none' } | { frequency: 'daily' | 'weekly'; weekday: number; minimum: number };

const ownerKey = (merchant: number, environment: Environment) => `${merchant}:${environment}`;

/** The day `at` falls on in the model's TIME_ZONE, as `YYYY-MM-DD` (Swedish dates are written so). */
export function dayOf(model: Model, at: number): string {
  return new Date(at).toLocaleDateString('sv-SE', { timeZone: model.timeZone });
}

/** The day `days` after `day` (negative: before), on the calendar. */
function dayAfter(day: string, days: number): string {
  const date = new Date(`${day}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

export function scheduleOf(model: Model, merchant: number, environment: Environment): ModelSchedule | undefined {
  return model.schedules.get(ownerKey(merchant, environment));
}

/** The merchant saves its schedule: a weekly one needs a day, the minimum is 0 or more; a refused choice changes nothing. */
export function chooseSchedule(model: Model, merchant: number, environment: Environment, choice: ScheduleChoice): 'saved' | 'invalid' {
  const key = ownerKey(merchant, environment);
  if (choice.frequency === 'none') {
    model.schedules.delete(key);
    return 'saved';
  }
  const badDay = choice.frequency === 'weekly' && !(Number.isInteger(choice.weekday) && choice.weekday >= 0 && choice.weekday <= 6);
  if (badDay || !(choice.minimum >= 0)) return 'invalid';
  model.schedules.set(key, { frequency: choice.frequency, weekday: choice.frequency === 'weekly' ? choice.weekday : null, minimum: choice.minimum, startsOn: dayOf(model, model.now) });
  return 'saved';
}

/** The period due now, named by its first local day: today (daily) or the latest chosen weekday (weekly); none before the schedule was saved. */
export function duePeriod(model: Model, schedule: ModelSchedule): string | undefined {
  let start = dayOf(model, model.now);
  if (schedule.frequency === 'weekly') while (new Date(`${start}T12:00:00Z`).getUTCDay() !== schedule.weekday) start = dayAfter(start, -1);
  return start >= schedule.startsOn ? start : undefined;
}

export interface ScheduledPayout {
  merchant: number;
  environment: Environment;
  amount: number;
  period: string;
}

/**
 * The schedule job, however many instances run it at once: for every schedule whose period is due
 * and has had no payout, one payout of all that is available when that is more than 0 and at least
 * the minimum. Below it nothing is claimed, so a later run in the period may pay. The caller adds
 * the payouts with the idx the service gave.
 */
export function runPayoutSchedules(model: Model): ScheduledPayout[] {
  const made: ScheduledPayout[] = [];
  for (const [key, schedule] of model.schedules) {
    const [merchant, environment] = [Number(key.split(':')[0]), key.split(':')[1] as Environment];
    const period = duePeriod(model, schedule);
    if (!period || model.paidPeriods.has(`${key}:${period}`)) continue;
    const { available } = balances(model, merchant, environment);
    if (available <= 0 || available < schedule.minimum) continue;
    model.paidPeriods.add(`${key}:${period}`);
    made.push({ merchant, environment, amount: available, period });
  }
  return made;
}

/** Payments of one order that hold or took its money: never more than one (contract section 3). */
export function holdersOfOrder(model: Model, p: Pick<ModelPayment, 'merchant' | 'environment' | 'orderId'>): ModelPayment[] {
  return model.payments.filter((q) => q.merchant === p.merchant && q.environment === p.environment && q.orderId === p.orderId && HOLDS_ORDER.includes(q.status));
}

export function maskMobile(mobile: string): string {
  return `${mobile.slice(0, 2)}${'X'.repeat(mobile.length - 3)}${mobile.slice(-1)}`;
}
