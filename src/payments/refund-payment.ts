// Refunds of a completed payment, whole or in parts. The conditional update of
// the state machine is the guard: racing refunds can never return more than was paid. A refund draws
// on the merchant's balance, under the lock every debit of it takes, so refunds
// and payouts racing for the last rupees never take the balance below zero: in live what the balance
// lacks is refused; in test the sandbox covers it (`refundDraw`), each cover decided under that lock.
import type { AppContext } from '../context.js';
import type { Queryable } from '../db/db.js';
import { AppError } from '../http/errors.js';
import { balanceFigures, lockSettlementAccount } from '../settlements/payout-store.js';
import { postRefundJournal } from '../ledger/refund-journal.js';
import { postSandboxCoverJournal } from '../ledger/sandbox-cover-journal.js';
import { refundDraw } from '../settlements/balance.js';
import { insertRefundRecord } from '../transactions/transaction-store.js';
import { findWallet } from '../wallets/wallet-store.js';
import type { Environment } from '../environment.js';
import type { Payment } from './payment.js';
import { findMerchantPaymentByTransactionId } from './payment-store.js';
import { transition } from './state-machine.js';

export interface RefundResult {
  payment: Payment;
  refundIdx: string;
  amount: number;
}

async function findByTransactionId(ctx: AppContext, transactionId: string, merchantId: number, environment: Environment): Promise<Payment | undefined> {
  // A path can carry a NUL character, which no transaction id (nor PostgreSQL text) holds.
  if (transactionId.includes('\u0000')) return undefined;
  return findMerchantPaymentByTransactionId(ctx.db, transactionId, merchantId, environment);
}

function refusal(payment: Payment, requested: number | undefined): AppError | undefined {
  if (payment.status !== 'Completed' && payment.status !== 'Partially refunded') {
    const detail = payment.status === 'Refunded' ? 'Transaction has already been fully refunded.' : `Only a Completed transaction can be refunded; this one is ${payment.status}.`;
    return new AppError('bad_request', { detail });
  }
  const remaining = payment.amount - payment.refunded_amount;
  if (requested !== undefined && requested > remaining) {
    return new AppError('bad_request', { detail: `Refund amount exceeds the refundable amount of ${remaining} paisa.` });
  }
  return undefined;
}

function insufficientBalance(balance: number): AppError {
  return new AppError('bad_request', {
    detail: `Insufficient balance: the refund is more than the merchant's balance of ${Math.max(balance, 0)} paisa (money already paid out cannot be refunded).`,
  });
}

/**
 * The refund's journal and record. A wallet payment's money goes back to the wallet; a provider
 * payment's is owed back through its provider, queued for its refund API or for the operators.
 * Returns the refund record's id.
 */
async function refundToPayer(ctx: AppContext, tx: Queryable, moved: Payment, refund: { refundIdx: string; amount: number; now: Date }): Promise<number> {
  const record = () => insertRefundRecord(tx, moved, { idx: refund.refundIdx, amount: refund.amount, at: refund.now });
  const throughProvider = await ctx.providerPayments.refundThroughProvider(ctx, tx, moved, { idx: refund.refundIdx, amount: refund.amount, now: refund.now }, record);
  if (throughProvider !== undefined) return throughProvider;
  const wallet = (await findWallet(tx, moved.environment, moved.payer_mobile!))!;
  await postRefundJournal(ctx, tx, moved, wallet.id, refund.amount, refund.now);
  return record();
}

export async function refundPayment(
  ctx: AppContext,
  owner: { merchantId: number; environment: Environment },
  transactionId: string,
  requested?: number,
  /** Written in the refund's own transaction (the Idempotency-Key's answer: `answerInTransaction`). */
  alsoInTransaction?: (tx: Queryable) => Promise<void>,
): Promise<RefundResult> {
  const payment = await findByTransactionId(ctx, transactionId, owner.merchantId, owner.environment);
  if (!payment) throw new AppError('not_found');
  const refused = refusal(payment, requested);
  if (refused) throw refused;
  const amount = requested ?? payment.amount - payment.refunded_amount;
  const now = ctx.clock.now();
  const refundIdx = ctx.ids.random(16);
  const refunded = await ctx.db.transaction(async (tx) => {
    await lockSettlementAccount(tx, owner, now);
    const { total } = await balanceFigures(tx, owner, now);
    const draw = refundDraw(owner.environment, total, amount);
    if (draw.refused) throw insufficientBalance(total);
    const moved = await transition(tx, payment.pidx, { name: 'refund', amount }, now);
    if (!moved) return null;
    const recordId = await refundToPayer(ctx, tx, moved, { refundIdx, amount, now });
    if (draw.cover > 0) await postSandboxCoverJournal(ctx, tx, { merchantId: owner.merchantId, pidx: moved.pidx, refundRecordId: recordId, amount: draw.cover, at: now });
    await alsoInTransaction?.(tx);
    return moved;
  });
  if (refunded) return { payment: refunded, refundIdx, amount };
  // Another refund changed the payment meanwhile: explain against what it is now.
  const current = (await findByTransactionId(ctx, transactionId, owner.merchantId, owner.environment))!;
  throw refusal(current, amount) ?? new AppError('bad_request', { detail: 'The refund could not be made; try again.' });
}
