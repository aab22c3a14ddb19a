// Step two on the hosted page: the OTP. A right OTP pays (or, for the sandbox's pending wallet,
// holds) the payment: status move, journal and transaction record in one database transaction.
import type { AppContext } from '../context.js';
import { postPaymentJournal } from '../ledger/payment-journal.js';
import { InsufficientBalanceError } from '../ledger/post-journal.js';
import { insertPaymentRecord } from '../transactions/transaction-store.js';
import { MAX_OTP_FAILURES } from '../wallets/attempt-rules.js';
import { keepSandboxFunded } from '../wallets/keep-sandbox-funded.js';
import { sandbox, type Wallet } from '../wallets/wallet.js';
import { findWalletById } from '../wallets/wallet-store.js';
import { claimAttempt, endAttempt, findAttempt, recordOtpFailure, recordPayerEvent, type PaymentAttempt } from './attempt-store.js';
import { callbackStatusOf, callbackUrl } from './callback.js';
import { assertPayable } from './payable.js';
import { effectiveStatus, type Payment } from './payment.js';
import { findPayment } from './payment-store.js';
import { PayerError } from './payer-error.js';
import { otpHash } from './start-payment-attempt.js';
import { OrderAlreadyPaidError, transition } from './state-machine.js';

async function pay(ctx: AppContext, payment: Payment, wallet: Wallet, token: string): Promise<Payment | null> {
  const now = ctx.clock.now();
  const move = wallet.mobile === sandbox.pendingMobile && wallet.sandbox ? 'hold' : 'pay';
  return ctx.db.transaction(async (tx) => {
    const moved = await transition(tx, payment.pidx, { name: move, transactionId: ctx.ids.random(16), payerMobile: wallet.mobile }, now);
    if (!moved) return null;
    // The attempt was read before this OTP was checked; if wrong OTPs sent meanwhile ended it, it cannot pay.
    if (!(await claimAttempt(tx, token))) throw new PayerError('attempt_ended');
    // A held payment moves no money until the operator resolves it.
    if (move === 'pay') {
      await keepSandboxFunded(ctx, tx, wallet, moved.amount);
      await postPaymentJournal(ctx, tx, moved, wallet.id, now);
    }
    await insertPaymentRecord(tx, moved, wallet, move === 'pay' ? 'Completed' : 'Confirmed', now);
    return moved;
  });
}

/** The redirect for a payment this payer already paid or had held, if it is one. */
async function finishedBy(ctx: AppContext, payment: Payment, wallet: Wallet): Promise<string | undefined> {
  const status = callbackStatusOf(payment);
  if (status && status !== 'User canceled' && payment.payer_mobile === wallet.mobile) return callbackUrl(ctx.db, payment, status);
  return undefined;
}

/** Confirms with the OTP; returns the URL to redirect the payer to. */
export async function confirmPayment(ctx: AppContext, payment: Payment, input: { token: string; otp: string }): Promise<string> {
  const attempt = await findAttempt(ctx.db, input.token, payment.pidx);
  if (!attempt) throw new PayerError('attempt_ended');
  const wallet = (await findWalletById(ctx.db, attempt.wallet_id))!;
  // The same payer submitting twice (a double click, a retry) gets the same result, not an error,
  // even when the duplicate finished the payment (and ended the attempt) a moment ago.
  const already = await finishedBy(ctx, payment, wallet);
  if (already) return already;
  try {
    return await confirmAttempt(ctx, payment, attempt, wallet, input.otp);
  } catch (error) {
    if (!(error instanceof PayerError) || error.code !== 'attempt_ended') throw error;
    const finished = await finishedBy(ctx, (await findPayment(ctx.db, payment.pidx))!, wallet);
    if (finished) return finished;
    throw error;
  }
}

async function confirmAttempt(ctx: AppContext, payment: Payment, attempt: PaymentAttempt, wallet: Wallet, otp: string): Promise<string> {
  const now = ctx.clock.now();
  await assertPayable(ctx.db, payment, now);
  if (attempt.ended) throw new PayerError('attempt_ended');
  if (attempt.otp_expires_at.getTime() <= now.getTime()) {
    await endAttempt(ctx.db, attempt.token);
    throw new PayerError('otp_expired');
  }
  if (otpHash(attempt.token, otp.trim()) !== attempt.otp_hash) {
    const counted = await recordOtpFailure(ctx.db, attempt.token, MAX_OTP_FAILURES);
    await recordPayerEvent(ctx.db, payment.pidx, now, 'wrong_otp', { mobile: wallet.mobile });
    if (!counted || counted.ended) throw new PayerError('attempt_ended');
    throw new PayerError('wrong_otp', { attemptsLeft: MAX_OTP_FAILURES - counted.otp_failures });
  }

  let moved: Payment | null;
  try {
    moved = await pay(ctx, payment, wallet, attempt.token);
  } catch (error) {
    if (error instanceof OrderAlreadyPaidError) throw new PayerError('order_paid');
    if (error instanceof InsufficientBalanceError) {
      await endAttempt(ctx.db, attempt.token);
      await recordPayerEvent(ctx.db, payment.pidx, now, 'insufficient_balance', { mobile: wallet.mobile });
      throw new PayerError('insufficient_balance');
    }
    throw error;
  }
  if (moved) return callbackUrl(ctx.db, moved, callbackStatusOf(moved)!);

  // Another request moved the payment first: answer with what it became.
  const current = (await findPayment(ctx.db, payment.pidx))!;
  const finished = await finishedBy(ctx, current, wallet);
  if (finished) return finished;
  throw new PayerError(effectiveStatus(current, now) === 'Expired' ? 'payment_expired' : 'not_payable');
}
