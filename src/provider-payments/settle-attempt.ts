// What Bhuktani does with a provider's answer about an attempt, whether the
// payer just came back (confirm-attempt.ts) or the reconciliation job asked (reconcile-attempts.ts).
// Money moves only on `paid`, the provider's own server-to-server answer for the same amount and
// reference; the payment completes from at most one attempt, and a second success is owed back.
// Each decision is one transaction: the attempt's row and the payment's row locked, every move
// conditional, so two instances settling one attempt (or two attempts of one payment) take turns.
import type { AppContext } from '../context.js';
import { PgCode, violates, type Queryable } from '../db/db.js';
import { postProviderPaymentJournal, postSurplusJournal } from '../ledger/provider-journals.js';
import { orderPaidElsewhere } from '../payments/payable.js';
import { effectiveStatus, type Payment } from '../payments/payment.js';
import { paymentColumns } from '../payments/payment-store.js';
import { transition } from '../payments/state-machine.js';
import { insertProviderPaymentRecord, setPaymentRecordState } from '../transactions/transaction-store.js';
import { isSettled, moveAttempt, type Attempt } from './attempt-state-machine.js';
import { lockAttempt, recordCheck } from './attempt-store.js';
import { type ProviderAnswer } from '../providers/provider.js';
import { ledgerNumberOf, recordTypeOf } from '../providers/registry.js';
import { insertProviderRefund } from './provider-refund-store.js';
import { completeInOneStatement } from './provider-completion.js';

export type Settled =
  | { kind: 'completed'; payment: Payment }
  | { kind: 'held'; payment: Payment }
  | { kind: 'surplus'; refundIdx: string }
  | { kind: 'failed' }
  | { kind: 'waiting' }
  | { kind: 'escalated' }
  /** Settled before (another request or instance): nothing done now. */
  | { kind: 'already'; attempt: Attempt };

/** Written in the settlement's own transaction (an operator's decision's audit entry). */
type AlsoInTransaction = (tx: Queryable) => Promise<void>;

/**
 * Who asked the provider. The reconciliation job (and an operator) counts an unknown or "not yet"
 * answer toward the operators' queue. A browser (a return the provider did not sign, the QR page's
 * wait) is anyone's: no answer it brings holds, counts or decides anything but the provider's own
 * final word. A return the provider signed (as paid, or pending there) brings a payer who paid: the
 * provider's unknown answer then holds the payment Pending while the job asks.
 */
export type Asker = 'job' | 'browser' | 'signed return';

export interface SettleOptions {
  asker: Asker;
  alsoInTransaction?: AlsoInTransaction;
}

/** When the reconciliation job asks next: its interval, doubled per question already asked, at most 64 times it. */
export function nextCheck(ctx: AppContext, checks: number, now: Date): Date {
  return new Date(now.getTime() + ctx.config.providerReconcileIntervalSeconds * 1000 * 2 ** Math.min(checks, 6));
}

/** After this the provider's "not paid yet" is final: the payment's lifetime and ten minutes past the attempt's start. */
const openUntil = (ctx: AppContext, attempt: Attempt) => new Date(attempt.created_at.getTime() + (ctx.config.paymentTtlSeconds + 600) * 1000);

async function lockPayment(tx: Queryable, pidx: string): Promise<Payment> {
  const [row] = await tx.query<Payment>(`SELECT ${paymentColumns} FROM payments WHERE pidx = $1 FOR UPDATE`, [pidx]);
  return row;
}

/**
 * Whether the payment's payment link has no place left, its row locked until the transaction ends,
 * so a provider's payment and a wallet's racing for the last place take turns.
 */
async function linkUsedUp(tx: Queryable, payment: Payment): Promise<boolean> {
  if (!payment.payment_link) return false;
  const [link] = await tx.query<{ full: boolean }>('SELECT max_payments IS NOT NULL AND payments_taken >= max_payments AS full FROM payment_links WHERE idx = $1 FOR UPDATE', [payment.payment_link]);
  return link?.full ?? false;
}

const holdsPayment = (payment: Payment, attempt: Attempt) => payment.status === 'Pending' && attempt.transaction_id !== null && payment.transaction_id === attempt.transaction_id;

/**
 * `checkOrder`: read whether another pidx of the order took the money before moving. The first try
 * does not: the unique index refuses such a move, and the retry checks.
 */
async function pay(ctx: AppContext, attempt: Attempt, answer: Extract<ProviderAnswer, { kind: 'paid' }>, also: AlsoInTransaction | undefined, checkOrder: boolean): Promise<Settled> {
  const now = ctx.clock.now();
  const provider = ledgerNumberOf(attempt.provider);
  const paidFields = { answer: answer.detail, providerTransactionId: answer.transactionId, providerFee: answer.fee };
  return ctx.db.transaction(async (tx) => {
    const current = await lockAttempt(tx, attempt.id);
    if (!current || isSettled(current.state)) return { kind: 'already', attempt: current ?? attempt } as const;
    const payment = await lockPayment(tx, attempt.pidx);
    if (holdsPayment(payment, current)) {
      const moved = (await transition(tx, payment.pidx, { name: 'provider_confirm' }, now))!;
      await moveAttempt(tx, current, 'pay', paidFields, now);
      await postProviderPaymentJournal(ctx, tx, moved, { provider, providerFee: answer.fee }, now);
      await setPaymentRecordState(tx, moved.transaction_id!, 'Completed');
      await also?.(tx);
      return { kind: 'completed', payment: moved } as const;
    }
    if (effectiveStatus(payment, now) === 'Initiated' && !(checkOrder && (await orderPaidElsewhere(tx, payment))) && !(await linkUsedUp(tx, payment))) {
      const transactionId = ctx.ids.random(16);
      const moved = await transition(tx, payment.pidx, { name: 'provider_pay', transactionId }, now);
      if (moved) {
        await moveAttempt(tx, current, 'pay', { ...paidFields, transactionId }, now);
        await postProviderPaymentJournal(ctx, tx, moved, { provider, providerFee: answer.fee }, now);
        await insertProviderPaymentRecord(tx, moved, { type: recordTypeOf(attempt.provider), state: 'Completed', at: now });
        await also?.(tx);
        return { kind: 'completed', payment: moved } as const;
      }
    }
    // Paid for a payment that another attempt, another pidx of the order, expiry, the payer's cancel
    // or its payment link's last place had already decided: the money is the payer's, owed back
    // through the provider.
    const refund = await insertProviderRefund(tx, {
      idx: ctx.ids.random(16),
      attempt_id: current.id,
      environment: current.environment,
      provider: current.provider,
      amount: current.amount,
      reason: 'surplus',
      refund_record_id: null,
      created_at: now,
      nextTryAt: now,
    });
    await moveAttempt(tx, current, 'surplus', paidFields, now);
    await postSurplusJournal(ctx, tx, { environment: current.environment, provider, amount: current.amount, providerFee: answer.fee, pidx: current.pidx, providerRefundId: refund.id }, now);
    await also?.(tx);
    return { kind: 'surplus', refundIdx: refund.idx } as const;
  });
}

async function fail(ctx: AppContext, attempt: Attempt, detail: string, also?: AlsoInTransaction): Promise<Settled> {
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const current = await lockAttempt(tx, attempt.id);
    if (!current || isSettled(current.state)) return { kind: 'already', attempt: current ?? attempt } as const;
    const payment = await lockPayment(tx, attempt.pidx);
    await moveAttempt(tx, current, 'fail', { answer: detail }, now);
    // The payment it held goes the way of a Pending payment the provider turned down.
    if (holdsPayment(payment, current)) {
      await transition(tx, payment.pidx, { name: 'provider_fail' }, now);
      await setPaymentRecordState(tx, payment.transaction_id!, 'Canceled');
    }
    await also?.(tx);
    return { kind: 'failed' } as const;
  });
}

/** The payer is back from a return the provider signed and its answer is unknown: the payment is held Pending while the job asks. */
async function doubt(ctx: AppContext, attempt: Attempt, detail: string, checkOrder: boolean): Promise<Settled> {
  const now = ctx.clock.now();
  const nextCheckAt = nextCheck(ctx, 0, now);
  return ctx.db.transaction(async (tx) => {
    const current = await lockAttempt(tx, attempt.id);
    if (!current || isSettled(current.state)) return { kind: 'already', attempt: current ?? attempt } as const;
    if (current.state !== 'Started') return { kind: 'waiting' } as const;
    const payment = await lockPayment(tx, attempt.pidx);
    if (effectiveStatus(payment, now) === 'Initiated' && !(checkOrder && (await orderPaidElsewhere(tx, payment))) && !(await linkUsedUp(tx, payment))) {
      const transactionId = ctx.ids.random(16);
      const held = await transition(tx, payment.pidx, { name: 'provider_hold', transactionId }, now);
      if (held) {
        await moveAttempt(tx, current, 'doubt', { answer: detail, transactionId, nextCheckAt }, now);
        await insertProviderPaymentRecord(tx, held, { type: recordTypeOf(attempt.provider), state: 'Confirmed', at: now });
        return { kind: 'held', payment: held } as const;
      }
    }
    await moveAttempt(tx, current, 'doubt', { answer: detail, nextCheckAt }, now);
    return { kind: 'waiting' } as const;
  });
}

/** Asked, and still not known: counted, asked again later, or handed to the operators at the limit. */
async function keepAsking(ctx: AppContext, attempt: Attempt, detail: string): Promise<Settled> {
  const now = ctx.clock.now();
  if (attempt.checks + 1 >= ctx.config.providerReconcileLimit) {
    const moved = await moveAttempt(ctx.db, attempt, 'escalate', { answer: detail }, now);
    return moved ? { kind: 'escalated' } : { kind: 'waiting' };
  }
  await recordCheck(ctx.db, attempt.id, detail, nextCheck(ctx, attempt.checks + 1, now));
  return { kind: 'waiting' };
}

function decided(answer: ProviderAnswer, attempt: Attempt, ctx: AppContext, options: SettleOptions): 'pay' | 'fail' | 'doubt' | 'ask' | 'nothing' {
  switch (answer.kind) {
    case 'paid':
      return 'pay';
    case 'failed':
      return 'fail';
    case 'open':
      if (ctx.clock.now() > openUntil(ctx, attempt)) return 'fail';
      // "Not paid (yet)" is the provider's own answer: whatever the browser claims, nothing is held
      // (a forged "paid" return would otherwise take a payment link's place). The job keeps asking.
      return options.asker === 'job' ? 'ask' : 'nothing';
    case 'unknown':
      // A browser anyone can send (a provider throttling a flood of forged returns) holds nothing.
      if (options.asker === 'signed return' && attempt.state === 'Started') return 'doubt';
      return options.asker === 'job' ? 'ask' : 'nothing';
  }
}

export async function settleAttempt(ctx: AppContext, attempt: Attempt, answer: ProviderAnswer, options: SettleOptions): Promise<Settled> {
  const action = decided(answer, attempt, ctx, options);
  let settled: Settled;
  for (let tries = 1; ; tries++) {
    try {
      const checkOrder = tries > 1;
      const fast = action === 'pay' && answer.kind === 'paid' && !options.alsoInTransaction && tries === 1 ? await completeInOneStatement(ctx, attempt, answer) : null;
      if (fast) settled = { kind: 'completed', payment: fast };
      else if (action === 'pay' && answer.kind === 'paid') settled = await pay(ctx, attempt, answer, options.alsoInTransaction, checkOrder);
      else if (action === 'fail') settled = await fail(ctx, attempt, answer.detail, options.alsoInTransaction);
      else if (action === 'doubt') settled = await doubt(ctx, attempt, answer.detail, checkOrder);
      else if (action === 'ask') settled = await keepAsking(ctx, attempt, answer.detail);
      else settled = { kind: 'waiting' };
      break;
    } catch (error) {
      // Another pidx of the order holds the money (the index refused the move): decide again, checking.
      if (tries < 2 && violates(error, PgCode.uniqueViolation, 'payments_one_paid_per_order')) continue;
      throw error;
    }
  }
  const outcome = { completed: 'Paid', held: 'Unknown', surplus: 'Surplus', failed: 'Failed', escalated: 'Escalated' }[settled.kind as string];
  if (outcome) ctx.metrics.providerOutcomes.inc({ provider: attempt.provider, environment: attempt.environment, outcome });
  return settled;
}
