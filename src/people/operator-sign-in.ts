// An operator signs in in two steps: the password (which starts a half-way session), then a TOTP
// code or a recovery code (which completes it). Each step is slowed down after failures, counted in
// the database per e-mail, per address and per operator's second factor, so a stolen password does
// not let anyone try the million codes either.
import type { AppContext } from '../context.js';
import { hashPassword, verifyPassword } from './password.js';
import type { Operator } from './operator.js';
import { acceptTotpStep, findOperatorSecrets } from './operator-store.js';
import { checkSecondFactor, CODE_FAILURES_BEFORE_LOCK, type TotpAccounts } from './second-factor.js';
import { SignInError } from './sign-in-error.js';
import { countSignInFailure, forgetSignInFailures, lockedForSeconds } from './sign-in-throttle.js';

export const PASSWORD_FAILURES_BEFORE_LOCK = 5;
export const IP_FAILURES_BEFORE_LOCK = 20;
export { CODE_FAILURES_BEFORE_LOCK };

export { SignInError };

const OPERATORS: TotpAccounts = {
  kind: 'operator',
  sealedSecret: async (tx, id) => (await findOperatorSecrets(tx, { id }, true))?.totpSecretSealed,
  acceptStep: acceptTotpStep,
};

const scopes = {
  email: (email: string) => `operator:email:${email.trim().toLowerCase()}`,
  ip: (ip: string) => `operator:ip:${ip}`,
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
  return checkSecondFactor(ctx, OPERATORS, { accountId: options.operatorId, code: options.code, allowRecovery: options.allowRecovery });
}
