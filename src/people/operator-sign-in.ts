// An operator signs in in two steps: the password (which starts a half-way session), then a TOTP
// code or a recovery code (which completes it). Each step is slowed down after failures, counted in
// the database per e-mail, per address and per operator's second factor, so a stolen password does
// not let anyone try the million codes either.
import type { AppContext } from '../context.js';
import { hashPassword, verifyPassword } from './password.js';
import type { Operator } from './operator.js';
import { acceptTotpStep, findOperatorSecrets, useRecoveryCode } from './operator-store.js';
import { hashRecoveryCode, looksLikeRecoveryCode } from './recovery-codes.js';
import { countSignInFailure, forgetSignInFailures, lockedForSeconds } from './sign-in-throttle.js';
import { openTotpSecret } from './totp-seal.js';
import { totpStepOf } from './totp.js';

export const PASSWORD_FAILURES_BEFORE_LOCK = 5;
export const IP_FAILURES_BEFORE_LOCK = 20;
/** Wrong codes before the second factor locks: 5 guesses in a million per lock. */
export const CODE_FAILURES_BEFORE_LOCK = 5;

export class SignInError extends Error {
  constructor(
    readonly code: 'wrong_credentials' | 'wrong_code' | 'locked',
    readonly retryAfterSeconds = 0,
  ) {
    super(
      code === 'locked'
        ? `Too many failed attempts. Try again in ${retryAfterSeconds} seconds.`
        : code === 'wrong_code'
          ? 'That code is not valid. Codes change every 30 seconds and each works once.'
          : 'Wrong e-mail or password.',
    );
  }
}

const scopes = {
  email: (email: string) => `operator:email:${email.trim().toLowerCase()}`,
  ip: (ip: string) => `operator:ip:${ip}`,
  code: (operatorId: number) => `operator:code:${operatorId}`,
};

let decoyHash: Promise<string> | undefined;

/** The password step: the operator it names, or a SignInError. */
export async function checkOperatorPassword(ctx: AppContext, options: { email: string; password: string; ip: string }): Promise<Operator> {
  const now = ctx.clock.now();
  const email = options.email.trim().toLowerCase();
  const locked = await lockedForSeconds(ctx.db, [scopes.email(email), scopes.ip(options.ip)], now);
  if (locked > 0) throw new SignInError('locked', locked);

  const found = email ? await findOperatorSecrets(ctx.db, { email }) : undefined;
  // A wrong e-mail takes as long as a wrong password.
  const hash = found?.passwordHash ?? (await (decoyHash ??= hashPassword('decoy password, never matches')));
  if ((await verifyPassword(options.password.slice(0, 200), hash)) && found) {
    await forgetSignInFailures(ctx.db, scopes.email(email));
    const { passwordHash: _, totpSecretSealed: __, totpLastStep: ___, ...operator } = found;
    return operator;
  }
  const lockFor = await countSignInFailure(
    ctx.db,
    [
      [scopes.email(email), PASSWORD_FAILURES_BEFORE_LOCK],
      [scopes.ip(options.ip), IP_FAILURES_BEFORE_LOCK],
    ],
    now,
  );
  throw lockFor > 0 ? new SignInError('locked', lockFor) : new SignInError('wrong_credentials');
}

/**
 * The second step: a TOTP code of the step before, of or after now that is later than the last one
 * accepted, or an unused recovery code (spent by this). Also confirms a new operator's enrolment.
 */
export async function checkOperatorCode(ctx: AppContext, options: { operatorId: number; code: string; allowRecovery: boolean }): Promise<{ usedRecoveryCode: boolean }> {
  const now = ctx.clock.now();
  const scope = scopes.code(options.operatorId);
  const locked = await lockedForSeconds(ctx.db, [scope], now);
  if (locked > 0) throw new SignInError('locked', locked);

  const accepted = await ctx.db.transaction(async (tx) => {
    const secrets = await findOperatorSecrets(tx, { id: options.operatorId }, true);
    if (!secrets) return undefined;
    if (options.allowRecovery && looksLikeRecoveryCode(options.code)) {
      return (await useRecoveryCode(tx, secrets.id, hashRecoveryCode(options.code), now)) ? { usedRecoveryCode: true } : undefined;
    }
    const step = totpStepOf(await openTotpSecret(tx, secrets.totpSecretSealed), options.code, now);
    return step !== undefined && (await acceptTotpStep(tx, secrets.id, step, now)) ? { usedRecoveryCode: false } : undefined;
  });
  if (accepted) {
    await forgetSignInFailures(ctx.db, scope);
    return accepted;
  }
  const lockFor = await countSignInFailure(ctx.db, [[scope, CODE_FAILURES_BEFORE_LOCK]], now);
  throw lockFor > 0 ? new SignInError('locked', lockFor) : new SignInError('wrong_code');
}
