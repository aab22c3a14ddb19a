// Step one on the hosted page: the payer's wallet and MPIN. On success an OTP is sent and an
// attempt token returned for step two.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { AppContext } from '../context.js';
import { ledgerAccount, walletAccount } from '../ledger/accounts.js';
import { walletBalance } from '../ledger/ledger-store.js';
import { verifyPassword } from '../people/password.js';
import { otpMessage } from '../wallets/otp-message.js';
import { OtpNotSentError } from '../wallets/otp-sender.js';
import { generateOtp, isLocked, MAX_MPIN_FAILURES, MPIN_LOCK_SECONDS, OTP_TTL_SECONDS } from '../wallets/attempt-rules.js';
import { MOBILE_PATTERN, MPIN_PATTERN, sandboxSecrets, type Wallet } from '../wallets/wallet.js';
import { clearMpinFailures, findMpinFailures, findWallet, recordMpinFailure } from '../wallets/wallet-store.js';
import { insertAttempt, recordPayerEvent } from './attempt-store.js';
import { assertPayable } from './payable.js';
import type { Payment } from './payment.js';
import { PayerError } from './payer-error.js';

export function otpHash(token: string, otp: string): string {
  return createHash('sha256').update(`${token}:${otp}`).digest('hex');
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

async function mpinMatches(wallet: Wallet, mpin: string): Promise<boolean> {
  if (wallet.sandbox) return sameText(mpin, sandboxSecrets(wallet.mobile).mpin);
  return wallet.mpin_hash !== null && verifyPassword(mpin, wallet.mpin_hash);
}

async function checkMpin(ctx: AppContext, payment: Payment, wallet: Wallet, mpin: string, now: Date): Promise<void> {
  // Sandbox wallets are shared: a lock holds only for this payment, so nobody can lock them for others.
  const scope = wallet.sandbox ? payment.pidx : '';
  const failures = await findMpinFailures(ctx.db, wallet.id, scope);
  if (isLocked(failures.locked_until, now)) throw new PayerError('wallet_locked', { lockedUntil: failures.locked_until! });
  if (await mpinMatches(wallet, mpin)) {
    if (failures.failures > 0) await clearMpinFailures(ctx.db, wallet.id, scope);
    return;
  }
  const counted = await recordMpinFailure(ctx.db, wallet.id, scope, {
    now,
    max: MAX_MPIN_FAILURES,
    lockUntil: new Date(now.getTime() + MPIN_LOCK_SECONDS * 1000),
  });
  await recordPayerEvent(ctx.db, payment.pidx, now, 'wrong_mpin', { mobile: wallet.mobile });
  if (isLocked(counted.locked_until, now)) throw new PayerError('wallet_locked', { lockedUntil: counted.locked_until! });
  throw new PayerError('wrong_mpin', { attemptsLeft: MAX_MPIN_FAILURES - counted.failures });
}

/**
 * A live OTP is sent before the attempt is written: when the gateway fails, nothing but the event is
 * stored, the payment stays payable and the payer simply tries again.
 */
async function sendOtp(ctx: AppContext, payment: Payment, merchantName: string, wallet: Wallet, otp: string, otpExpiresAt: Date, now: Date): Promise<void> {
  try {
    await ctx.otp.send({ mobile: wallet.mobile, otp, message: otpMessage({ amount: payment.amount, merchantName, otp }), pidx: payment.pidx, expiresAt: otpExpiresAt });
  } catch (error) {
    if (!(error instanceof OtpNotSentError)) throw error;
    ctx.metrics.otpSends.inc({ result: 'failed' });
    await recordPayerEvent(ctx.db, payment.pidx, now, 'otp_not_sent', { mobile: wallet.mobile });
    throw new PayerError('otp_not_sent');
  }
  ctx.metrics.otpSends.inc({ result: 'sent' });
}

export async function startPaymentAttempt(
  ctx: AppContext,
  { payment, merchant }: { payment: Payment; merchant: { name: string } },
  input: { mobile: string; mpin: string },
): Promise<string> {
  const now = ctx.clock.now();
  await assertPayable(ctx.db, payment, now);
  const mobile = input.mobile.trim();
  if (!MOBILE_PATTERN.test(mobile) || !MPIN_PATTERN.test(input.mpin)) throw new PayerError('invalid_input');
  const wallet = await findWallet(ctx.db, payment.environment, mobile);
  if (!wallet) throw new PayerError('unknown_wallet');
  await checkMpin(ctx, payment, wallet, input.mpin, now);
  // Told only to who knows the MPIN; the OTP step checks again, as the wallet may be frozen meanwhile.
  if (wallet.frozen_at) throw new PayerError('wallet_frozen');
  if (!wallet.sandbox) {
    const balance = await walletBalance(ctx.db, await ledgerAccount(ctx.db, ctx.db, walletAccount(wallet.environment, wallet.id)));
    if (balance < payment.amount) throw new PayerError('insufficient_balance');
  }
  const token = ctx.ids.random(16);
  const otp = wallet.sandbox ? sandboxSecrets(wallet.mobile).otp : generateOtp();
  const otpExpiresAt = new Date(now.getTime() + OTP_TTL_SECONDS * 1000);
  if (!wallet.sandbox) await sendOtp(ctx, payment, merchant.name, wallet, otp, otpExpiresAt, now);
  await insertAttempt(ctx.db, { token, pidx: payment.pidx, wallet_id: wallet.id, otp_hash: otpHash(token, otp), otp_expires_at: otpExpiresAt, now });
  return token;
}
