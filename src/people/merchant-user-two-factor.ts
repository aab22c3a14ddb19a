// TOTP two-factor for merchant users, on the operators' mechanism (second-factor.ts, sealed secrets,
// recovery codes): set up from a secret shown while not yet enrolled, confirmed with one code, which
// issues ten recovery codes; new codes or turning it off ask a code from the app.
import type { AppContext } from '../context.js';
import { AppError } from '../http/errors.js';
import { acceptUserTotpStep, clearTotp, findUserSecrets, setPendingTotpSecret } from '../merchants/merchant-user-store.js';
import { issueRecoveryCodes } from './issue-recovery-codes.js';
import { countUnusedRecoveryCodes, deleteRecoveryCodes } from './recovery-code-store.js';
import { checkSecondFactor, type TotpAccounts } from './second-factor.js';
import { openTotpSecret, sealTotpSecret } from './totp-seal.js';
import { newTotpSecret, totpUri } from './totp.js';

const MERCHANT_USERS: TotpAccounts = {
  kind: 'merchant_user',
  sealedSecret: async (tx, id) => (await findUserSecrets(tx, id, true))?.totpSecretSealed ?? undefined,
  acceptStep: acceptUserTotpStep,
};

/** A code from the app, or (when allowed) a recovery code; throws SignInError when wrong or locked. */
export function checkUserCode(ctx: AppContext, options: { userId: number; code: string; allowRecovery: boolean }): Promise<{ usedRecoveryCode: boolean }> {
  return checkSecondFactor(ctx, MERCHANT_USERS, { accountId: options.userId, code: options.code, allowRecovery: options.allowRecovery });
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
  await checkUserCode(ctx, { userId: options.userId, code: options.code, allowRecovery: false });
  return ctx.db.transaction((tx) => issueRecoveryCodes(tx, { kind: 'merchant_user', accountId: options.userId, now: ctx.clock.now() }));
}

async function enrolledOrConflict(ctx: AppContext, userId: number) {
  const secrets = await findUserSecrets(ctx.db, userId);
  if (!secrets?.totpEnrolledAt) throw new AppError('conflict', { detail: 'Two-factor is not on.' });
}

/** Ten new recovery codes after a code from the app (the old ones stop working). */
export async function regenerateUserRecoveryCodes(ctx: AppContext, options: { userId: number; code: string }): Promise<string[]> {
  await enrolledOrConflict(ctx, options.userId);
  await checkUserCode(ctx, { userId: options.userId, code: options.code, allowRecovery: false });
  return ctx.db.transaction((tx) => issueRecoveryCodes(tx, { kind: 'merchant_user', accountId: options.userId, now: ctx.clock.now() }));
}

/** Turns two-factor off after a code (or a recovery code); refused while the team requires it. */
export async function turnOffTwoFactor(ctx: AppContext, options: { userId: number; code: string; teamRequiresIt: boolean }): Promise<void> {
  if (options.teamRequiresIt) throw new AppError('conflict', { detail: 'Your team requires two-factor: it cannot be turned off.' });
  await enrolledOrConflict(ctx, options.userId);
  await checkUserCode(ctx, { userId: options.userId, code: options.code, allowRecovery: true });
  await ctx.db.transaction(async (tx) => {
    await clearTotp(tx, options.userId);
    await deleteRecoveryCodes(tx, 'merchant_user', options.userId);
  });
}

export const unusedRecoveryCodes = (ctx: AppContext, userId: number) => countUnusedRecoveryCodes(ctx.db, 'merchant_user', userId);
