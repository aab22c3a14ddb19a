// What admins do to other operators, and what operators do to their own account. Each one
// transaction with its audit entry; an operator removed or given another role is signed out at once,
// and the open invitations of one removed, or given a role that may not invite, are revoked with it.
// The last admin can be neither removed nor demoted, or nobody could manage operators any more.
import type { Actor } from '../audit/audit-entry.js';
import { appendAudit } from '../audit/audit-store.js';
import type { AppContext } from '../context.js';
import type { Queryable } from '../db/db.js';
import { AppError } from '../http/errors.js';
import { issueRecoveryCodes } from './issue-recovery-codes.js';
import { mayInvite, revokeInvitationsOf } from './operator-invitations.js';
import { isOperatorRole, type Operator, passwordProblem } from './operator.js';
import { findOperator, findOperatorSecrets, lockAdmins, markRemoved, updatePasswordHash, updateRole } from './operator-store.js';
import { hashPassword, verifyPassword } from './password.js';
import { endAccountSessions, OPERATOR_SESSIONS } from './sessions.js';

const objectOf = (id: number) => ({ type: 'operator' as const, id: String(id) });

async function operatorOrNotFound(tx: Queryable, id: number): Promise<Operator> {
  const operator = await findOperator(tx, id);
  if (!operator) throw new AppError('not_found', { detail: 'No such operator.' });
  return operator;
}

/** Admins' rows are locked first (before reading the operator), so two admins demoting each other at once cannot leave none. */
function refuseLastAdmin(admins: number[], operator: Operator, what: string) {
  if (operator.role !== 'admin') return;
  if (admins.length <= 1) throw new AppError('conflict', { detail: `${operator.email} is the last admin: make another operator admin before you ${what}.` });
}

export async function changeOperatorRole(ctx: AppContext, options: { operatorId: number; role: string; actor: Actor }): Promise<void> {
  if (!isOperatorRole(options.role)) throw new AppError('validation_error', { fields: { role: ['Choose admin, support or finance.'] } });
  const role = options.role;
  const now = ctx.clock.now();
  await ctx.db.transaction(async (tx) => {
    const admins = await lockAdmins(tx);
    const operator = await operatorOrNotFound(tx, options.operatorId);
    if (operator.role === role) return;
    if (role !== 'admin') refuseLastAdmin(admins, operator, 'change their role');
    await updateRole(tx, operator.id, role);
    await endAccountSessions(tx, OPERATOR_SESSIONS, { accountId: operator.id });
    await appendAudit(tx, { now, actor: options.actor, action: 'operator.change_role', object: objectOf(operator.id), before: { email: operator.email, role: operator.role }, after: { role } });
    if (mayInvite(operator.role) && !mayInvite(role)) await revokeInvitationsOf(tx, { sender: operator, actor: options.actor, who: `is ${role} now and may not invite`, now });
  });
}

export async function removeOperator(ctx: AppContext, options: { operatorId: number; actor: Actor; reason?: string }): Promise<void> {
  const now = ctx.clock.now();
  await ctx.db.transaction(async (tx) => {
    const admins = await lockAdmins(tx);
    const operator = await operatorOrNotFound(tx, options.operatorId);
    refuseLastAdmin(admins, operator, 'remove them');
    await markRemoved(tx, operator.id, now);
    await endAccountSessions(tx, OPERATOR_SESSIONS, { accountId: operator.id });
    await appendAudit(tx, { now, actor: options.actor, action: 'operator.remove', object: objectOf(operator.id), reason: options.reason || undefined, before: { email: operator.email, role: operator.role } });
    await revokeInvitationsOf(tx, { sender: operator, actor: options.actor, who: 'was removed', now });
  });
}

async function checkCurrentPassword(ctx: AppContext, operatorId: number, password: string) {
  const secrets = await findOperatorSecrets(ctx.db, { id: operatorId });
  if (!secrets || !(await verifyPassword(password.slice(0, 200), secrets.passwordHash))) {
    throw new AppError('validation_error', { fields: { current_password: ['That is not your current password.'] } });
  }
  return secrets;
}

/** Your own password; your other sessions end (whoever knew the old one is signed out). */
export async function changeOwnPassword(ctx: AppContext, options: { operatorId: number; sessionId: string; currentPassword: string; newPassword: string }): Promise<void> {
  const secrets = await checkCurrentPassword(ctx, options.operatorId, options.currentPassword);
  const problem = passwordProblem(options.newPassword, secrets.email);
  if (problem) throw new AppError('validation_error', { fields: { new_password: [problem] } });
  const hash = await hashPassword(options.newPassword);
  const now = ctx.clock.now();
  await ctx.db.transaction(async (tx) => {
    await updatePasswordHash(tx, secrets.id, hash);
    await endAccountSessions(tx, OPERATOR_SESSIONS, { accountId: secrets.id, except: options.sessionId });
    await appendAudit(tx, { now, actor: { kind: 'operator', id: secrets.id, label: secrets.email }, action: 'operator.change_password', object: objectOf(secrets.id) });
  });
}

/** A new set of ten recovery codes (the old ones stop working), after the current password. */
export async function regenerateRecoveryCodes(ctx: AppContext, options: { operatorId: number; currentPassword: string }): Promise<string[]> {
  const secrets = await checkCurrentPassword(ctx, options.operatorId, options.currentPassword);
  const now = ctx.clock.now();
  return ctx.db.transaction((tx) => issueRecoveryCodes(tx, { kind: 'operator', accountId: secrets.id, actor: { kind: 'operator', id: secrets.id, label: secrets.email }, now }));
}
