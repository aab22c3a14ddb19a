// TOTP two-factor for merchant users, on the operators' mechanism (second-factor.ts, sealed secrets,
// recovery codes): set up from a secret shown while not yet enrolled, confirmed with one code, which
// issues ten recovery codes; new codes or turning it off ask a code from the app. Each of these, and
// each recovery code used, goes in the team's log in the transaction that accepts the code.
import type { AppContext } from '../context.js';
import type { Queryable } from '../db/db.js';
import { AppError } from '../http/errors.js';
import { acceptUserTotpStep, clearTotp, findUserSecrets, setPendingTotpSecret } from '../merchants/merchant-user-store.js';
import { issueRecoveryCodes } from './issue-recovery-codes.js';
import { countUnusedRecoveryCodes, deleteRecoveryCodes } from './recovery-code-store.js';
import { type AcceptedCode, checkSecondFactor, type TotpAccounts } from './second-factor.js';
import { recordSecurityAct } from './security-acts.js';
import { openTotpSecret, sealTotpSecret } from './totp-seal.js';
import { newTotpSecret, totpUri } from './totp.js';

const MERCHANT_USERS: TotpAccounts = {
  kind: 'merchant_user',
  sealedSecret: async (tx, id) => (await findUserSecrets(tx, id, true))?.totpSecretSealed ?? undefined,
  acceptStep: acceptUserTotpStep,
};

/** Why a code is asked, as the team's log says it when a recovery code was used. */
export type CodePurpose = 'to log in' | 'to confirm a change';

/**
 * A code from the app, or a recovery code; throws SignInError when wrong or locked. A recovery code
 * used is recorded with `purpose` and how many are left.
 */
export function checkUserCode(ctx: AppContext, options: { userId: number; code: string; purpose: CodePurpose }): Promise<AcceptedCode> {
  return checkSecondFactor(ctx, MERCHANT_USERS, { accountId: options.userId, code: options.code, allowRecovery: true }, async (tx, accepted) => {
    if (accepted.usedRecoveryCode) {
      const left = await countUnusedRecoveryCodes(tx, 'merchant_user', options.userId);
      await recordSecurityAct(tx, { userId: options.userId, act: 'recovery_code_used', now: ctx.clock.now(), detail: `${options.purpose}; ${left} left` });
    }
    return accepted;
  });
}

/** A code from the app (not a recovery code) that allows `then`, written in the same transaction. */
const withAppCode = <T>(ctx: AppContext, options: { userId: number; code: string }, then: (tx: Queryable) => Promise<T>) =>
  checkSecondFactor(ctx, MERCHANT_USERS, { accountId: options.userId, code: options.code, allowRecovery: false }, then);

/** Ten new recovery codes, the old ones dead, and the act in the log. */
async function newRecoveryCodes(ctx: AppContext, tx: Queryable, userId: number, act: 'two_factor_on' | 'recovery_codes_new'): Promise<string[]> {
  const now = ctx.clock.now();
  const codes = await issueRecoveryCodes(tx, { kind: 'merchant_user', accountId: userId, now });
  await recordSecurityAct(tx, { userId, act, now });
  return codes;
}

/** The secret to set up and its URI (the same one until confirmed), or undefined when already enrolled. */
export async function enrolmentSecret(ctx: AppContext, options: { userId: number }): Promise<{ secret: string; uri: string } | undefined> {
  const secrets = await findUserSecrets(ctx.db, options.userId);
  if (!secrets || secrets.totpEnrolledAt) return undefined;
  let secret: string;
  if (secrets.totpSecretSealed) secret = await openTotpSecret(ctx.db, secrets.totpSecretSealed);
  else {
    secret = newTotpSecret();
    if (!(await setPendingTotpSecret(ctx.db, options.userId, await sealTotpSecret(ctx.db, secret)))) return undefined;
  }
  return { secret, uri: totpUri(secret, secrets.email) };
}

/** Confirms a code from the new app (throws SignInError when wrong) and returns the recovery codes, shown once. */
export async function confirmEnrolment(ctx: AppContext, options: { userId: number; code: string }): Promise<string[]> {
  const secrets = await findUserSecrets(ctx.db, options.userId);
  if (!secrets?.totpSecretSealed || secrets.totpEnrolledAt) throw new AppError('conflict', { detail: 'Two-factor is on already, or its setup was not started.' });
  return withAppCode(ctx, options, (tx) => newRecoveryCodes(ctx, tx, options.userId, 'two_factor_on'));
}

async function enrolledOrConflict(ctx: AppContext, userId: number) {
  const secrets = await findUserSecrets(ctx.db, userId);
  if (!secrets?.totpEnrolledAt) throw new AppError('conflict', { detail: 'Two-factor is not on.' });
}

/** Ten new recovery codes after a code from the app (the old ones stop working). */
export async function regenerateUserRecoveryCodes(ctx: AppContext, options: { userId: number; code: string }): Promise<string[]> {
  await enrolledOrConflict(ctx, options.userId);
  return withAppCode(ctx, options, (tx) => newRecoveryCodes(ctx, tx, options.userId, 'recovery_codes_new'));
}

/** Turns two-factor off after a code (or a recovery code); refused while the team requires it. */
export async function turnOffTwoFactor(ctx: AppContext, options: { userId: number; code: string; teamRequiresIt: boolean }): Promise<void> {
  if (options.teamRequiresIt) throw new AppError('conflict', { detail: 'Your team requires two-factor: it cannot be turned off.' });
  await enrolledOrConflict(ctx, options.userId);
  await checkSecondFactor(ctx, MERCHANT_USERS, { accountId: options.userId, code: options.code, allowRecovery: true }, async (tx, accepted) => {
    await clearTotp(tx, options.userId);
    await deleteRecoveryCodes(tx, 'merchant_user', options.userId);
    await recordSecurityAct(tx, { userId: options.userId, act: 'two_factor_off', now: ctx.clock.now(), detail: accepted.usedRecoveryCode ? 'with a recovery code' : '' });
  });
}

export const unusedRecoveryCodes = (ctx: AppContext, userId: number) => countUnusedRecoveryCodes(ctx.db, 'merchant_user', userId);
