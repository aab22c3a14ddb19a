// The second factor of any kind of account: a TOTP code of the step before, of or after now that is
// later than the last one accepted, or an unused recovery code (spent by this). Wrong codes are
// counted in the database per account, so a stolen password does not let anyone try the million
// codes, on this instance or another.
import type { AppContext } from '../context.js';
import type { Queryable } from '../db/db.js';
import { type RecoveryAccountKind, useRecoveryCode } from './recovery-code-store.js';
import { hashRecoveryCode, looksLikeRecoveryCode } from './recovery-codes.js';
import { SignInError } from './sign-in-error.js';
import { countSignInFailure, forgetSignInFailures, lockedForSeconds } from './sign-in-throttle.js';
import { openTotpSecret } from './totp-seal.js';
import { totpStepOf } from './totp.js';

/** Wrong codes before the second factor locks: 5 guesses in a million per lock. */
export const CODE_FAILURES_BEFORE_LOCK = 5;

/** Where one kind of account keeps its TOTP secret. */
export interface TotpAccounts {
  kind: RecoveryAccountKind;
  /** The sealed secret (locking the row), undefined when there is none. */
  sealedSecret(tx: Queryable, accountId: number): Promise<string | undefined>;
  /** Moves the last accepted step forward (and marks the enrolment done); false when `step` is not after it. */
  acceptStep(tx: Queryable, accountId: number, step: number, now: Date): Promise<boolean>;
}

export const codeScope = (kind: RecoveryAccountKind, accountId: number) => `${kind}:code:${accountId}`;

export interface AcceptedCode {
  usedRecoveryCode: boolean;
}

/**
 * Checks a code (throws SignInError when wrong or locked). `then` writes what the code allows (and
 * its record) in the transaction that accepts the code, so neither happens without the other.
 */
export async function checkSecondFactor<T = AcceptedCode>(
  ctx: AppContext,
  accounts: TotpAccounts,
  options: { accountId: number; code: string; allowRecovery: boolean },
  then: (tx: Queryable, accepted: AcceptedCode) => Promise<T> = async (_tx, accepted) => accepted as T,
): Promise<T> {
  const now = ctx.clock.now();
  const scope = codeScope(accounts.kind, options.accountId);
  const locked = await lockedForSeconds(ctx.db, [scope], now);
  if (locked > 0) throw new SignInError('locked', locked);

  const accepted = await ctx.db.transaction(async (tx) => {
    const sealed = await accounts.sealedSecret(tx, options.accountId);
    if (!sealed) return undefined;
    let usedRecoveryCode = false;
    if (options.allowRecovery && looksLikeRecoveryCode(options.code)) {
      if (!(await useRecoveryCode(tx, accounts.kind, options.accountId, hashRecoveryCode(options.code), now))) return undefined;
      usedRecoveryCode = true;
    } else {
      const step = totpStepOf(await openTotpSecret(ctx, tx, accounts.kind, sealed), options.code, now);
      if (step === undefined || !(await accounts.acceptStep(tx, options.accountId, step, now))) return undefined;
    }
    return { outcome: await then(tx, { usedRecoveryCode }) };
  });
  if (accepted) {
    await forgetSignInFailures(ctx.db, scope);
    return accepted.outcome;
  }
  const lockFor = await countSignInFailure(ctx.db, [[scope, CODE_FAILURES_BEFORE_LOCK]], now);
  throw lockFor > 0 ? new SignInError('locked', lockFor) : new SignInError('wrong_code');
}
