// Merchant log-in with a slow-down: after repeated failures for one email, or from one address,
// log-ins are refused for a time that doubles with every further failure. Counted in the database,
// so the slow-down holds across instances.
import type { AppContext } from '../context.js';
import type { Merchant } from './merchant.js';
import { findMerchantByEmail } from './merchant-store.js';
import { clearFailures, countFailure, findLockedUntil, lockScope } from './login-failure-store.js';
import { hashPassword, verifyPassword } from './password.js';

/** Failures for one email before it is locked; an address shared by many people (an office) gets more. */
export const EMAIL_FAILURES_BEFORE_LOCK = 5;
export const IP_FAILURES_BEFORE_LOCK = 20;
export const FIRST_LOCK_SECONDS = 30;
export const MAX_LOCK_SECONDS = 60 * 60;
/** A count with no failure for this long starts again. */
export const FORGET_FAILURES_AFTER_SECONDS = 24 * 60 * 60;

/** Pure: how long to lock after the `failures`-th failure (0: not yet). 30 s, 60 s, 120 s, … at most an hour. */
export function lockSeconds(failures: number, threshold: number): number {
  if (failures < threshold) return 0;
  return Math.min(FIRST_LOCK_SECONDS * 2 ** Math.min(failures - threshold, 20), MAX_LOCK_SECONDS);
}

export class LogInError extends Error {
  constructor(
    readonly code: 'wrong_credentials' | 'locked',
    readonly retryAfterSeconds = 0,
  ) {
    super(code === 'locked' ? `Too many failed log-ins. Try again in ${retryAfterSeconds} seconds.` : 'Wrong email or password.');
  }
}

// Checked against when the email is unknown, so a wrong email takes as long as a wrong password.
let decoyHash: Promise<string> | undefined;

export async function logIn(ctx: AppContext, options: { email: string; password: string; ip: string }): Promise<Merchant> {
  const now = ctx.clock.now();
  const email = options.email.trim().toLowerCase();
  const scopes = { email: `email:${email}`, ip: `ip:${options.ip}` };
  const lockedUntil = await findLockedUntil(ctx.db, [scopes.email, scopes.ip], now);
  if (lockedUntil) throw new LogInError('locked', Math.ceil((lockedUntil.getTime() - now.getTime()) / 1000));

  const found = email ? await findMerchantByEmail(ctx.db, email) : undefined;
  const passwordHash = found?.password_hash ?? (await (decoyHash ??= hashPassword('decoy password, never matches')));
  const matches = (await verifyPassword(options.password, passwordHash)) && found !== undefined;
  if (matches) {
    // Only the email's count: clearing the address's would let one valid account reset it for guessing at others.
    await clearFailures(ctx.db, scopes.email);
    const { password_hash: _, ...merchant } = found;
    return merchant;
  }

  const forgetBefore = new Date(now.getTime() - FORGET_FAILURES_AFTER_SECONDS * 1000);
  let lockFor = 0;
  for (const [scope, threshold] of [
    [scopes.email, EMAIL_FAILURES_BEFORE_LOCK],
    [scopes.ip, IP_FAILURES_BEFORE_LOCK],
  ] as const) {
    const seconds = lockSeconds(await countFailure(ctx.db, scope, now, forgetBefore), threshold);
    if (seconds > 0) await lockScope(ctx.db, scope, new Date(now.getTime() + seconds * 1000));
    lockFor = Math.max(lockFor, seconds);
  }
  if (lockFor > 0) throw new LogInError('locked', lockFor);
  throw new LogInError('wrong_credentials');
}
