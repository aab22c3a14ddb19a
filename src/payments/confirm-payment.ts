// Step two on the hosted page: the OTP. A right OTP pays (or, for the sandbox's pending wallet,
// holds) the payment: status move, journal and transaction record in one statement, shared with
// whatever other confirms are being written at the same moment (completion-store).
import type { AppContext } from '../context.js';
import { paymentJournal } from '../ledger/payment-journal.js';
import { balancedPostings, InsufficientBalanceError, ledgerError } from '../ledger/post-journal.js';
import { MAX_OTP_FAILURES } from '../wallets/attempt-rules.js';
import { keepSandboxFunded } from '../wallets/keep-sandbox-funded.js';
import { sandbox, type Wallet } from '../wallets/wallet.js';
import { findWalletByIdx } from '../wallets/wallet-store.js';
import { endAttempt, recordOtpFailure, recordPayerEvent, type PaymentAttempt } from './attempt-store.js';
import { assertPayableStatus } from './payable.js';
import { effectiveStatus, type Payment } from './payment.js';
import { findPayment } from './payment-store.js';
import { PayerError } from './payer-error.js';
import { returnStatusOf, type PayerReturn } from './return-status.js';
import { otpHash } from './start-payment-attempt.js';
import { complete, LinkUsedUpError, OrderAlreadyPaidError } from './completion-store.js';

/**
 * Pays (or holds) the payment: the attempt claimed, the status moved, the journal and the record
 * written, in one statement (`complete`). A sandbox wallet short of the amount is topped up first.
 * Null when the attempt had ended or the payment could no longer move.
 */
async function pay(ctx: AppContext, payment: Payment, wallet: Wallet, token: string): Promise<Payment | null> {
  const now = ctx.clock.now();
  const move = wallet.mobile === sandbox.pendingMobile && wallet.sandbox ? 'hold' : 'pay';
  // A held payment moves no money until the operator resolves it.
  const journal = move === 'pay' ? await paymentJournal(ctx, ctx.db, payment, wallet.id, now) : undefined;
  const completion = { pidx: payment.pidx, token, move, transactionId: ctx.ids.random(16), wallet, at: now, postings: journal ? balancedPostings(journal.postings) : [] } as const;
  // A sandbox wallet topped up, then drained by another payment of the same wallet before this
  // one's write, is topped up again.
  for (let tries = 1; ; tries++) {
    if (journal && wallet.sandbox) await ctx.db.transaction((tx) => keepSandboxFunded(ctx, tx, wallet, payment.amount));
    try {
      return await complete(ctx.db, completion);
    } catch (error) {
      const refused = journal ? ledgerError(error, journal) : error;
      if (!(refused instanceof InsufficientBalanceError) || !wallet.sandbox || tries >= 3) throw refused;
    }
  }
}

/** The return of a payment this payer already paid or had held, if it is one. */
function finishedBy(payment: Payment, wallet: Wallet): PayerReturn | undefined {
  const status = returnStatusOf(payment);
  if (status && status !== 'User canceled' && payment.payer_mobile === wallet.mobile) return { payment, status };
  return undefined;
}

/** Confirms `attempt` of `payment`, read with its wallet, with the OTP; returns the payment to send the payer back with. */
export async function confirmPayment(ctx: AppContext, { payment, attempt, wallet }: { payment: Payment; attempt?: PaymentAttempt; wallet?: Wallet }, otp: string): Promise<PayerReturn> {
  if (!attempt || !wallet) throw new PayerError('attempt_ended');
  // The same payer submitting twice (a double click, a retry) gets the same result, not an error,
  // even when the duplicate finished the payment (and ended the attempt) a moment ago.
  const already = finishedBy(payment, wallet);
  if (already) return already;
  let moved: Payment | null;
  let ended: PayerError | undefined;
  try {
    moved = await confirmAttempt(ctx, payment, attempt, wallet, otp);
  } catch (error) {
    if (!(error instanceof PayerError) || error.code !== 'attempt_ended') throw error;
    [moved, ended] = [null, error];
  }
  if (moved) return { payment: moved, status: returnStatusOf(moved)! };
  // The statement refuses a wallet frozen while the payer typed the OTP.
  const payer = await findWalletByIdx(ctx.db, wallet.idx);
  if (payer?.frozen_at) throw new PayerError('wallet_frozen');

  // Another request moved the payment or ended the attempt first (this payer's duplicate among
  // them): answer with what the payment became.
  const current = (await findPayment(ctx.db, payment.pidx))!;
  const finished = finishedBy(current, wallet);
  if (finished) return finished;
  if (ended) throw ended;
  const status = effectiveStatus(current, ctx.clock.now());
  throw new PayerError(status === 'Expired' ? 'payment_expired' : status === 'Initiated' ? 'attempt_ended' : 'not_payable');
}

/** Checks the OTP and pays; the moved payment, or null when another request moved it or ended the attempt first. */
async function confirmAttempt(ctx: AppContext, payment: Payment, attempt: PaymentAttempt, wallet: Wallet, otp: string): Promise<Payment | null> {
  const now = ctx.clock.now();
  // A payment of the same order paid elsewhere is refused by the store when this one moves.
  assertPayableStatus(payment, now);
  if (attempt.ended) throw new PayerError('attempt_ended');
  if (wallet.frozen_at) throw new PayerError('wallet_frozen');
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

  try {
    return await pay(ctx, payment, wallet, attempt.token);
  } catch (error) {
    if (error instanceof OrderAlreadyPaidError) throw new PayerError('order_paid');
    // Racing payers on a payment link with one payment left: another's completion took it, and
    // this statement wrote nothing, so this payer is not charged; their attempt ends.
    if (error instanceof LinkUsedUpError) {
      await endAttempt(ctx.db, attempt.token);
      await recordPayerEvent(ctx.db, payment.pidx, now, 'link_used_up', { mobile: wallet.mobile });
      throw new PayerError('link_used_up');
    }
    if (error instanceof InsufficientBalanceError) {
      await endAttempt(ctx.db, attempt.token);
      await recordPayerEvent(ctx.db, payment.pidx, now, 'insufficient_balance', { mobile: wallet.mobile });
      throw new PayerError('insufficient_balance');
    }
    throw error;
  }
}
