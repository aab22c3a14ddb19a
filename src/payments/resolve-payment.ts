// The operator decides a held (Pending) payment: Completed moves the money now; User canceled
// releases the order. Who decided, and why, goes to the audit log in the same transaction.
import type { Actor } from '../audit/audit-entry.js';
import { appendAudit } from '../audit/audit-store.js';
import type { AppContext } from '../context.js';
import { AppError } from '../http/errors.js';
import { postPaymentJournal } from '../ledger/payment-journal.js';
import { InsufficientBalanceError } from '../ledger/post-journal.js';
import { setPaymentRecordState } from '../transactions/transaction-store.js';
import { keepSandboxFunded } from '../wallets/keep-sandbox-funded.js';
import { findWallet } from '../wallets/wallet-store.js';
import type { Payment } from './payment.js';
import { findPayment } from './payment-store.js';
import { transition } from './state-machine.js';

export type Resolution = 'Completed' | 'User canceled';

export interface ResolvePaymentInput {
  actor: Actor;
  pidx: string;
  resolution: Resolution;
  reason?: string;
}

export async function resolvePayment(ctx: AppContext, { actor, pidx, resolution, reason }: ResolvePaymentInput): Promise<Payment> {
  const payment = await findPayment(ctx.db, pidx);
  if (!payment) throw new AppError('not_found');
  if (payment.status !== 'Pending') throw new AppError('bad_request', { detail: `Only a Pending payment can be resolved; this one is ${payment.status}.` });
  // Held while a provider's answer is unknown: decided through its attempt.
  if (await ctx.providerPayments.resolveHeld(ctx, { actor, payment, resolution, reason: reason?.trim() || `resolved ${resolution}` })) return (await findPayment(ctx.db, pidx))!;
  const now = ctx.clock.now();
  try {
    return await ctx.db.transaction(async (tx) => {
      const moved = await transition(tx, pidx, { name: resolution === 'Completed' ? 'resolve_completed' : 'resolve_canceled' }, now);
      if (!moved) throw new AppError('bad_request', { detail: 'The payment was resolved by someone else meanwhile.' });
      if (resolution === 'Completed') {
        const wallet = (await findWallet(tx, moved.environment, moved.payer_mobile!))!;
        if (wallet.frozen_at) throw new AppError('bad_request', { detail: "The payer's wallet is frozen: unfreeze it first, or resolve the payment as User canceled." });
        await keepSandboxFunded(ctx, tx, wallet, moved.amount);
        await postPaymentJournal(ctx, tx, moved, wallet.id, now);
      }
      await setPaymentRecordState(tx, moved.transaction_id!, resolution === 'Completed' ? 'Completed' : 'Canceled');
      await appendAudit(tx, {
        now,
        actor,
        action: 'payment.resolve',
        object: { type: 'payment', id: pidx },
        environment: moved.environment,
        reason: reason?.trim() || undefined,
        before: { status: 'Pending' },
        after: { status: moved.status },
      });
      return moved;
    });
  } catch (error) {
    if (error instanceof InsufficientBalanceError) throw new AppError('bad_request', { detail: "The payer's wallet no longer has the amount." });
    throw error;
  }
}
