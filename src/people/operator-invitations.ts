// Admins invite operators by e-mail: a single-use link, valid for 7 days, whose token is kept only
// as its SHA-256 (guesses at it limited per address, link-guesses.ts). Accepting it sets the password and starts the TOTP enrolment. Inviting, resending
// and revoking are audited in their own transaction; the e-mail goes out after it commits. Invitation
// e-mails are counted per admin and per address a day (mail-allowance.ts). An invitation lives only
// while whoever sent it may invite: their removal or demotion revokes it (manage-operators.ts).
import type { Actor } from '../audit/audit-entry.js';
import { appendAudit } from '../audit/audit-store.js';
import { mayUse } from './operator-permissions.js';
import type { AppContext } from '../context.js';
import { PgCode, pgCode, type Queryable } from '../db/db.js';
import { AppError } from '../http/errors.js';
import { emailTaken } from './create-operator.js';
import { invitationTokenHash, isInvitationToken, newInvitationLink } from './invitation-link.js';
import { findUsableInvitation, insertInvitation, type InvitationRow, markAccepted, markRevoked, OPERATOR_INVITATIONS, reissueInvitation, revokeInvitationsSentBy } from './invitation-store.js';
import { invitationMail } from './invitation-mail.js';
import { followLink } from './link-guesses.js';
import { addressAllowance, spendMailAllowances } from './mail-allowance.js';
import { isOperatorRole, normalEmail, type Operator, type OperatorRole, passwordProblem } from './operator.js';
import { findOperatorByEmail, insertOperator, lockOperatorRole } from './operator-store.js';
import { hashPassword } from './password.js';
import { newTotpSecret } from './totp.js';
import { sealTotpSecret } from './totp-seal.js';

const OPERATOR_NEXT = 'choose your password and set up two-factor sign-in (you need an authenticator app)';
const objectOf = (invitation: InvitationRow) => ({ type: 'operator' as const, id: `invitation:${invitation.id}` });

/** Invitation e-mails (invitations and resends alike) one admin sends a day. */
export const OPERATOR_INVITATION_MAILS_PER_DAY = 20;

/** Who may invite: the console's permission `operators.manage`. */
export const mayInvite = (role: OperatorRole) => mayUse(role, 'operators.manage');

type Admin = Actor & { kind: 'operator' };

/**
 * In the transaction of an invitation e-mail: the admin still may invite (their row locked, so their
 * removal or demotion at once waits for this transaction, then revokes what it sent, or is waited for
 * and this one is refused).
 */
async function stillInviting(tx: Queryable, admin: Admin): Promise<void> {
  const role = await lockOperatorRole(tx, admin.id);
  if (!role || !mayInvite(role)) throw new AppError('forbidden', { detail: 'You may no longer invite operators: your role changed or you were removed.' });
}

/** Spends one invitation e-mail to `email` of the admin's allowances for today, in the e-mail's transaction (see spendMailAllowances). */
async function spendInvitationMail(ctx: AppContext, tx: Queryable, admin: Admin, email: string): Promise<void> {
  const perDay = OPERATOR_INVITATION_MAILS_PER_DAY;
  const mine = { scope: `invitation-mail:operator:${admin.id}`, perDay, refusal: `You have sent your ${perDay} invitation e-mails for today (invitations and resends alike).` };
  await spendMailAllowances(tx, [mine, addressAllowance('invitation-mail:console', email)], { now: ctx.clock.now(), timeZone: ctx.config.timeZone });
}

/** Revokes in `tx` the open invitations `sender` sent, now that they may not invite (`who`: why), each audited as `actor`'s. */
export async function revokeInvitationsOf(tx: Queryable, options: { sender: Operator; actor: Actor; who: string; now: Date }): Promise<void> {
  const { sender, actor, now } = options;
  for (const row of await revokeInvitationsSentBy(tx, OPERATOR_INVITATIONS, sender.id, now)) {
    await appendAudit(tx, { now, actor, action: 'operator.invite_revoke', object: objectOf(row), reason: `sent by ${sender.email}, who ${options.who}`, before: { email: row.email, role: row.role } });
  }
}

async function mail(ctx: AppContext, invitation: InvitationRow, token: string, invitedBy: string) {
  const link = `${ctx.config.publicUrl}/console/invitation/${token}`;
  await ctx.mailer.send(
    invitationMail({ to: invitation.email, role: invitation.role, link, invitedBy, expiresAt: invitation.expires_at, timeZone: ctx.config.timeZone, place: 'the Bhuktani operator console', then: OPERATOR_NEXT }),
  );
}

export async function inviteOperator(ctx: AppContext, options: { email: string; role: string; actor: Admin }): Promise<InvitationRow> {
  const email = normalEmail(options.email);
  const fields: Record<string, string[]> = {};
  if (!email) fields.email = ['Enter a valid e-mail address.'];
  if (!isOperatorRole(options.role)) fields.role = ['Choose admin, support or finance.'];
  if (Object.keys(fields).length > 0) throw new AppError('validation_error', { fields });
  if (await findOperatorByEmail(ctx.db, email!)) throw emailTaken();
  const now = ctx.clock.now();
  const { token, tokenHash, expiresAt } = newInvitationLink(now);
  const invitation = await ctx.db.transaction(async (tx) => {
    await stillInviting(tx, options.actor);
    await spendInvitationMail(ctx, tx, options.actor, email!);
    const row = await insertInvitation(tx, OPERATOR_INVITATIONS, { email: email!, role: options.role as Operator['role'], tokenHash, invitedBy: options.actor.id, now, expiresAt });
    await appendAudit(tx, { now, actor: options.actor, action: 'operator.invite', object: objectOf(row), after: { email: row.email, role: row.role } });
    return row;
  });
  await mail(ctx, invitation, token, options.actor.label);
  return invitation;
}

/** A new link for an open invitation, mailed again; the old link stops working. */
export async function resendInvitation(ctx: AppContext, options: { invitationId: number; actor: Admin }): Promise<InvitationRow> {
  const now = ctx.clock.now();
  const { token, tokenHash, expiresAt } = newInvitationLink(now);
  const invitation = await ctx.db.transaction(async (tx) => {
    await stillInviting(tx, options.actor);
    const row = await reissueInvitation(tx, OPERATOR_INVITATIONS, options.invitationId, { tokenHash, invitedBy: options.actor.id, now, expiresAt });
    if (!row) throw new AppError('not_found', { detail: 'This invitation was accepted or revoked already.' });
    await spendInvitationMail(ctx, tx, options.actor, row.email);
    await appendAudit(tx, { now, actor: options.actor, action: 'operator.invite_resend', object: objectOf(row), after: { email: row.email, role: row.role } });
    return row;
  });
  await mail(ctx, invitation, token, options.actor.label);
  return invitation;
}

export async function revokeInvitation(ctx: AppContext, options: { invitationId: number; actor: Actor }): Promise<void> {
  const now = ctx.clock.now();
  await ctx.db.transaction(async (tx) => {
    const row = await markRevoked(tx, OPERATOR_INVITATIONS, options.invitationId, now);
    if (!row) throw new AppError('not_found', { detail: 'This invitation was accepted or revoked already.' });
    await appendAudit(tx, { now, actor: options.actor, action: 'operator.invite_revoke', object: objectOf(row), before: { email: row.email, role: row.role } });
  });
}

/**
 * The invitation a link followed from `ip` names, while it can be accepted. Throws SignInError:
 * 'wrong_code' for a wrong or dead link, 'locked' after too many (link-guesses.ts).
 */
export function usableInvitation(ctx: AppContext, options: { token: string; ip: string }): Promise<InvitationRow> {
  return followLink(ctx, options.ip, async () =>
    isInvitationToken(options.token) ? findUsableInvitation(ctx.db, OPERATOR_INVITATIONS, invitationTokenHash(options.token), ctx.clock.now()) : undefined,
  );
}

/**
 * Accepts `invitation` (as usableInvitation found it for the link `token`) with the new operator's
 * password: the link is spent and the operator exists (not yet enrolled) in one transaction.
 * Undefined when the link was spent meanwhile.
 */
export async function acceptInvitation(ctx: AppContext, options: { invitation: InvitationRow; token: string; password: string }): Promise<Operator | undefined> {
  const { invitation } = options;
  const problem = passwordProblem(options.password, invitation.email);
  if (problem) throw new AppError('validation_error', { fields: { password: [problem] } });
  const passwordHash = await hashPassword(options.password);
  const now = ctx.clock.now();
  try {
    return await ctx.db.transaction(async (tx) => {
      const accepted = await markAccepted<Operator['role']>(tx, OPERATOR_INVITATIONS, invitationTokenHash(options.token), now);
      if (!accepted) return undefined;
      const operator = await insertOperator(tx, { email: accepted.email, role: accepted.role, passwordHash, totpSecretSealed: await sealTotpSecret(ctx, tx, 'operator', newTotpSecret()), totpEnrolledAt: null, now });
      const actor = { kind: 'operator' as const, id: operator.id, label: operator.email };
      await appendAudit(tx, { now, actor, action: 'operator.join', object: { type: 'operator', id: String(operator.id) }, after: { email: operator.email, role: operator.role, invitation: accepted.id } });
      return operator;
    });
  } catch (error) {
    if (pgCode(error) === PgCode.uniqueViolation) throw emailTaken();
    throw error;
  }
}
