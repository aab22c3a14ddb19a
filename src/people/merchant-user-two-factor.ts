// TOTP two-factor for the people of merchants' teams (a person's, whichever business they look at), on the operators' mechanism (second-factor.ts, sealed secrets,
// recovery codes): set up from a secret shown while not yet enrolled, confirmed with one code, which
// issues ten recovery codes; new codes or turning it off ask a code from the app. Each of these, and
// each recovery code used, goes in the team's log in the transaction that accepts the code.
import type { AppContext } from '../context.js';
import type { Queryable } from '../db/db.js';
import { AppError } from '../http/errors.js';
import { acceptPersonTotpStep, clearTotp, findPersonSecrets, setPendingTotpSecret } from '../merchants/merchant-person-store.js';
import { anyTeamRequiresTwoFactor } from '../merchants/merchant-user-store.js';
import { issueRecoveryCodes } from './issue-recovery-codes.js';
import { countUnusedRecoveryCodes, deleteRecoveryCodes } from './recovery-code-store.js';
import { type AcceptedCode, checkSecondFactor, type TotpAccounts } from './second-factor.js';
import { recordSecurityAct } from './security-acts.js';
import { openTotpSecret, sealTotpSecret } from './totp-seal.js';
import { newTotpSecret, totpUri } from './totp.js';

const MERCHANT_PEOPLE: TotpAccounts = {
  kind: 'merchant_person',
  sealedSecret: async (tx, id) => (await findPersonSecrets(tx, id, true))?.totpSecretSealed ?? undefined,
  acceptStep: acceptPersonTotpStep,
};

/** Why a code is asked, as the team's log says it when a recovery code was used. */
export type CodePurpose = 'to log in' | 'to confirm a change';

/**
 * A code from the app, or a recovery code; throws SignInError when wrong or locked. A recovery code
 * used is recorded with `purpose` and how many are left.
 */
export function checkUserCode(ctx: AppContext, options: { personId: number; code: string; purpose: CodePurpose }): Promise<AcceptedCode> {
  return checkSecondFactor(ctx, MERCHANT_PEOPLE, { accountId: options.personId, code: options.code, allowRecovery: true }, async (tx, accepted) => {
    if (accepted.usedRecoveryCode) {
      const left = await countUnusedRecoveryCodes(tx, 'merchant_person', options.personId);
      await recordSecurityAct(tx, { personId: options.personId, act: 'recovery_code_used', now: ctx.clock.now(), detail: `${options.purpose}; ${left} left` });
    }
    return accepted;
  });
}

/** A code from the app (not a recovery code) that allows `then`, written in the same transaction. */
const withAppCode = <T>(ctx: AppContext, options: { personId: number; code: string }, then: (tx: Queryable) => Promise<T>) =>
  checkSecondFactor(ctx, MERCHANT_PEOPLE, { accountId: options.personId, code: options.code, allowRecovery: false }, then);

/** Ten new recovery codes, the old ones dead, and the act in the log. */
async function newRecoveryCodes(ctx: AppContext, tx: Queryable, personId: number, act: 'two_factor_on' | 'recovery_codes_new'): Promise<string[]> {
  const now = ctx.clock.now();
  const codes = await issueRecoveryCodes(tx, { kind: 'merchant_person', accountId: personId, now });
  await recordSecurityAct(tx, { personId, act, now });
  return codes;
}

/** The secret to set up and its URI (the same one until confirmed), or undefined when already enrolled. */
export async function enrolmentSecret(ctx: AppContext, options: { personId: number }): Promise<{ secret: string; uri: string } | undefined> {
  const secrets = await findPersonSecrets(ctx.db, options.personId);
  if (!secrets || secrets.totpEnrolledAt) return undefined;
  let secret: string;
  if (secrets.totpSecretSealed) secret = await openTotpSecret(ctx, ctx.db, 'merchant_person', secrets.totpSecretSealed);
  else {
    secret = newTotpSecret();
    if (!(await setPendingTotpSecret(ctx.db, options.personId, await sealTotpSecret(ctx, ctx.db, 'merchant_person', secret)))) return undefined;
  }
  return { secret, uri: totpUri(secret, secrets.email) };
}

/** Confirms a code from the new app (throws SignInError when wrong) and returns the recovery codes, shown once. */
export async function confirmEnrolment(ctx: AppContext, options: { personId: number; code: string }): Promise<string[]> {
  const secrets = await findPersonSecrets(ctx.db, options.personId);
  if (!secrets?.totpSecretSealed || secrets.totpEnrolledAt) throw new AppError('conflict', { detail: 'Two-factor is on already, or its setup was not started.' });
  return withAppCode(ctx, options, (tx) => newRecoveryCodes(ctx, tx, options.personId, 'two_factor_on'));
}

async function enrolledOrConflict(ctx: AppContext, personId: number) {
  const secrets = await findPersonSecrets(ctx.db, personId);
  if (!secrets?.totpEnrolledAt) throw new AppError('conflict', { detail: 'Two-factor is not on.' });
}

/** Ten new recovery codes after a code from the app (the old ones stop working). */
export async function regenerateUserRecoveryCodes(ctx: AppContext, options: { personId: number; code: string }): Promise<string[]> {
  await enrolledOrConflict(ctx, options.personId);
  return withAppCode(ctx, options, (tx) => newRecoveryCodes(ctx, tx, options.personId, 'recovery_codes_new'));
}

/** Turns two-factor off after a code (or a recovery code); refused while a team of the person's requires it. */
export async function turnOffTwoFactor(ctx: AppContext, options: { personId: number; code: string }): Promise<void> {
  if (await anyTeamRequiresTwoFactor(ctx.db, options.personId)) throw new AppError('conflict', { detail: 'A team you belong to requires two-factor: it cannot be turned off.' });
  await enrolledOrConflict(ctx, options.personId);
  await checkSecondFactor(ctx, MERCHANT_PEOPLE, { accountId: options.personId, code: options.code, allowRecovery: true }, async (tx, accepted) => {
    await clearTotp(tx, options.personId);
    await deleteRecoveryCodes(tx, 'merchant_person', options.personId);
    await recordSecurityAct(tx, { personId: options.personId, act: 'two_factor_off', now: ctx.clock.now(), detail: accepted.usedRecoveryCode ? 'with a recovery code' : '' });
  });
}

export const unusedRecoveryCodes = (ctx: AppContext, personId: number) => countUnusedRecoveryCodes(ctx.db, 'merchant_person', personId);
