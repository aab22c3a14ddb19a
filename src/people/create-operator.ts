// An operator made on the server by another operator's act (`bhuktani operator create`): enrolled
// at once, its TOTP secret shown once to whoever ran the command. Invited operators enrol in the
// console instead (accept-invitation.ts).
import type { Actor } from '../audit/audit-entry.js';
import { appendAudit } from '../audit/audit-store.js';
import type { AppContext } from '../context.js';
import { PgCode, pgCode } from '../db/db.js';
import { AppError } from '../http/errors.js';
import { isOperatorRole, normalEmail, type Operator, type OperatorRole, passwordProblem } from './operator.js';
import { issueRecoveryCodes } from './issue-recovery-codes.js';
import { insertOperator } from './operator-store.js';
import { hashPassword } from './password.js';
import { newTotpSecret, totpUri } from './totp.js';
import { sealTotpSecret } from './totp-seal.js';

export interface CreatedOperator {
  operator: Operator;
  totpSecret: string;
  totpUri: string;
  recoveryCodes: string[];
}

/** The fields' problems, in the contract's validation shape. */
export function operatorFieldErrors(values: { email: string; password: string; role: string }): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  if (!normalEmail(values.email)) errors.email = ['Enter a valid e-mail address.'];
  const problem = passwordProblem(values.password, values.email);
  if (problem) errors.password = [problem];
  if (!isOperatorRole(values.role)) errors.role = ['Choose admin, support or finance.'];
  return errors;
}

export const emailTaken = () => new AppError('validation_error', { fields: { email: ['An operator with this e-mail exists already.'] } });

export async function createOperator(ctx: AppContext, options: { email: string; password: string; role: string; actor: Actor }): Promise<CreatedOperator> {
  const errors = operatorFieldErrors(options);
  if (Object.keys(errors).length > 0) throw new AppError('validation_error', { fields: errors });
  const email = normalEmail(options.email)!;
  const role = options.role as OperatorRole;
  const totpSecret = newTotpSecret();
  const passwordHash = await hashPassword(options.password);
  const now = ctx.clock.now();
  try {
    const { operator, recoveryCodes } = await ctx.db.transaction(async (tx) => {
      const created = await insertOperator(tx, { email, role, passwordHash, totpSecretSealed: await sealTotpSecret(ctx, tx, 'operator', totpSecret), totpEnrolledAt: now, now });
      await appendAudit(tx, { now, actor: options.actor, action: 'operator.create', object: { type: 'operator', id: String(created.id) }, after: { email, role } });
      return { operator: created, recoveryCodes: await issueRecoveryCodes(tx, { kind: 'operator', accountId: created.id, actor: options.actor, now }) };
    });
    return { operator, totpSecret, totpUri: totpUri(totpSecret, email), recoveryCodes };
  } catch (error) {
    if (pgCode(error) === PgCode.uniqueViolation) throw emailTaken();
    throw error;
  }
}
