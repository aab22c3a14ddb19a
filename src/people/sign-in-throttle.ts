// The slow-down of every sign-in (merchants' log-in, operators' password, TOTP and recovery codes):
// after repeated failures in one scope, that scope is refused for a time that doubles with every
// further failure. Counted in the database, so the slow-down holds across instances.
import type { Queryable } from '../db/db.js';
import { clearFailures, countFailure, findLockedUntil, lockScope } from './login-failure-store.js';

export const FIRST_LOCK_SECONDS = 30;
export const MAX_LOCK_SECONDS = 60 * 60;
/** A count with no failure for this long starts again. */
export const FORGET_FAILURES_AFTER_SECONDS = 24 * 60 * 60;

/** Pure: how long to lock after the `failures`-th failure (0: not yet). 30 s, 60 s, 120 s, … at most an hour. */
export function lockSeconds(failures: number, threshold: number): number {
  if (failures < threshold) return 0;
  return Math.min(FIRST_LOCK_SECONDS * 2 ** Math.min(failures - threshold, 20), MAX_LOCK_SECONDS);
}

/** Seconds until the last of `scopes` is unlocked (0: none is locked). */
export async function lockedForSeconds(db: Queryable, scopes: string[], now: Date): Promise<number> {
  const until = await findLockedUntil(db, scopes, now);
  return until ? Math.ceil((until.getTime() - now.getTime()) / 1000) : 0;
}

/** Counts one failure in each scope (with its threshold) and returns how long the longest lock now is (0: none). */
export async function countSignInFailure(db: Queryable, scopes: (readonly [scope: string, threshold: number])[], now: Date): Promise<number> {
  const forgetBefore = new Date(now.getTime() - FORGET_FAILURES_AFTER_SECONDS * 1000);
  let lockFor = 0;
  for (const [scope, threshold] of scopes) {
    const seconds = lockSeconds(await countFailure(db, scope, now, forgetBefore), threshold);
    if (seconds > 0) await lockScope(db, scope, new Date(now.getTime() + seconds * 1000));
    lockFor = Math.max(lockFor, seconds);
  }
  return lockFor;
}

export { clearFailures as forgetSignInFailures };
