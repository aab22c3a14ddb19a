// A merchant's team: the owner and admins invite by e-mail (a single-use link valid 7
// days, invitation-link.ts; guesses at it limited per address, link-guesses.ts), resend, revoke, change a role, remove a user (their sessions end in the
// same transaction); the owner hands ownership over (the old owner becomes admin). An invitation to an
// address that has an account already (one person may belong to several businesses) is answered and
// mailed like any other; accepting it asks that account's password, or only a press when signed in. Each change is one
// transaction with its line in the team's log; the owner hears of joins, role changes, removals and
// hand-overs by e-mail once it has committed. Who may call which is the dashboard's permission table;
// the rules here are those no role may break: nobody is invited or made owner but by a hand-over, and
// the owner is never demoted or removed, so a team always has exactly one owner. An invitation lives
// only while whoever sent it may invite: removing them, or a role that may not invite, revokes it in
// the same transaction. Invitation e-mails are counted per team and per address a day (mail-allowance.ts).
import type { AppContext } from '../context.js';
import { PgCode, pgCode, type Queryable } from '../db/db.js';
import { may } from './merchant-permissions.js';
import { AppError } from '../http/errors.js';
import { type MerchantPerson, type MerchantRole, type MerchantUser } from '../merchants/merchant-user.js';
import { findPersonByEmail, insertMerchantPerson, markEmailVerified } from '../merchants/merchant-person-store.js';
import { insertMerchantUser } from '../merchants/merchant-user-store.js';
import { findMerchantById } from '../merchants/merchant-store.js';
import { invitationMail } from './invitation-mail.js';
import { invitationTokenHash, isInvitationToken, newInvitationLink } from './invitation-link.js';
import { followLink } from './link-guesses.js';
import {
  findOpenInvitationFor,
  findUsableInvitation,
  insertInvitation,
  type InvitationRow,
  markAccepted,
  markRevoked,
  MERCHANT_INVITATION_LINKS,
  merchantInvitations,
  reissueInvitation,
  revokeInvitationsSentBy,
} from './invitation-store.js';
import { addressAllowance, spendMailAllowances } from './mail-allowance.js';
import { checkUserPassword } from './merchant-user-password.js';
import { checkUserCode } from './merchant-user-two-factor.js';
import { emailIsInTeam, findOwner, findTeamUser, insertTeamEvent, lockTeamUserRole, markUserRemoved, updateUserRole } from './merchant-team-store.js';
import { normalEmail } from './operator.js';
import { notifyOwner, type OwnerNotice } from './owner-notice.js';
import { hashPassword } from './password.js';

/** The roles one can be invited as, or changed to: every role but owner. */
export const INVITABLE_ROLES = ['admin', 'developer', 'finance', 'viewer'] as const;
export type InvitableRole = (typeof INVITABLE_ROLES)[number];
const isInvitable = (role: string): role is InvitableRole => (INVITABLE_ROLES as readonly string[]).includes(role);

export const TEAM_PASSWORD_MIN_LENGTH = 8;

/** Invitation e-mails (invitations and resends alike) one team sends a day: few while the owner's e-mail is unconfirmed (a throwaway sign-up), more after. */
export const TEAM_INVITATION_MAILS_PER_DAY = { unconfirmed: 3, confirmed: 50 } as const;

/** The logged-in user acting on their own merchant's team. */
export interface TeamActor {
  userId: number;
  email: string;
  merchantId: number;
  merchantName: string;
}

type Log = { error(object: object, message: string): void };

const inTeamAlready = (email: string) => new AppError('conflict', { detail: `${email} is in your team already.` });
const roleRefused = () => new AppError('validation_error', { fields: { role: ['Choose admin, developer, finance or viewer. Ownership is handed over, not given.'] } });
const noSuchUser = () => new AppError('not_found', { detail: 'There is no such user in your team.' });
const noSuchInvitation = () => new AppError('not_found', { detail: 'This invitation was accepted or revoked already.' });

async function mailInvitation(ctx: AppContext, actor: TeamActor, invitation: InvitationRow, token: string) {
  const link = `${ctx.config.publicUrl}/dashboard/invitation/${token}`;
  // Only the invitee reads this: whether the address has an account is theirs to know.
  const hasAccount = (await findPersonByEmail(ctx.db, invitation.email)) !== undefined;
  await ctx.mailer.send(
    invitationMail({
      to: invitation.email,
      role: invitation.role,
      link,
      invitedBy: actor.email,
      expiresAt: invitation.expires_at,
      timeZone: ctx.config.timeZone,
      place: `${actor.merchantName}'s team on the Bhuktani merchant dashboard`,
      then: hasAccount
        ? 'join with your Bhuktani account (its password, or just a press if you are logged in): your other businesses stay as they are'
        : `choose your password (at least ${TEAM_PASSWORD_MIN_LENGTH} characters) and log in`,
    }),
  );
}

const notice = (actor: TeamActor, what: string, lines: string[], alsoTo?: string): OwnerNotice => ({ merchantId: actor.merchantId, merchantName: actor.merchantName, what, by: actor.email, lines, alsoTo });

/** Who may invite: the permission table's `team.manage`. */
const mayInvite = (role: MerchantRole) => may(role, 'team.manage');

/**
 * In the transaction of an invitation e-mail, first: the actor still may invite. Their row is locked,
 * so their removal or demotion at once waits for this transaction (and revokes what it sent) or is
 * waited for (and this one is refused).
 */
async function stillInviting(tx: Queryable, actor: TeamActor): Promise<void> {
  const role = await lockTeamUserRole(tx, actor.merchantId, actor.userId);
  if (!role || !mayInvite(role)) throw new AppError('forbidden', { detail: 'You may no longer invite: your role changed or you were removed from the team.' });
}

/** Spends one invitation e-mail to `email` of the team's allowances for today, in the e-mail's transaction (see spendMailAllowances). */
async function spendInvitationMail(ctx: AppContext, tx: Queryable, actor: TeamActor, email: string): Promise<void> {
  const confirmed = Boolean((await findOwner(tx, actor.merchantId))?.email_verified_at);
  const perDay = TEAM_INVITATION_MAILS_PER_DAY[confirmed ? 'confirmed' : 'unconfirmed'];
  const team = `invitation-mail:merchant:${actor.merchantId}`;
  const refusal = confirmed
    ? `Your team has sent its ${perDay} invitation e-mails for today (invitations and resends alike).`
    : `Your team has sent its ${perDay} invitation e-mails for today: ${perDay} a day until the owner confirms their e-mail address, ${TEAM_INVITATION_MAILS_PER_DAY.confirmed} after.`;
  await spendMailAllowances(tx, [{ scope: team, perDay, refusal }, addressAllowance(team, email)], { now: ctx.clock.now(), timeZone: ctx.config.timeZone });
}

/** Revokes in `tx` the open invitations `sender` sent, now that they may not invite (`who`: why), each with its line in the log. */
async function revokeInvitationsOf(tx: Queryable, actor: TeamActor, sender: MerchantUser, who: string, now: Date): Promise<InvitationRow[]> {
  const revoked = await revokeInvitationsSentBy(tx, merchantInvitations(actor.merchantId), sender.id, now);
  for (const row of revoked) {
    const detail = `${row.role}, sent by ${sender.email}, who ${who}`;
    await insertTeamEvent(tx, { merchantId: actor.merchantId, now, actorUserId: actor.userId, actorEmail: actor.email, action: 'invite_revoke', subjectEmail: row.email, detail });
  }
  return revoked;
}

/** The owner's e-mail's line about invitations revoked with a change. */
const revokedLines = (revoked: InvitationRow[]) => (revoked.length === 0 ? [] : [`Their open invitations were revoked: ${revoked.map((r) => `${r.email} (${r.role})`).join(', ')}.`]);

export async function inviteTeamMember(ctx: AppContext, options: { actor: TeamActor; email: string; role: string }): Promise<InvitationRow<InvitableRole>> {
  const email = normalEmail(options.email);
  const fields: Record<string, string[]> = {};
  if (!email) fields.email = ['Enter a valid e-mail address.'];
  if (!isInvitable(options.role)) fields.role = roleRefused().fields!.role as string[];
  if (Object.keys(fields).length > 0) throw new AppError('validation_error', { fields });
  const role = options.role as InvitableRole;
  const book = merchantInvitations(options.actor.merchantId);
  // A user of another business is invited like anyone: whether an address has an account shows nowhere.
  if (await emailIsInTeam(ctx.db, options.actor.merchantId, email!)) throw inTeamAlready(email!);
  if (await findOpenInvitationFor(ctx.db, book, email!)) throw new AppError('conflict', { detail: `${email} is invited already: resend or revoke that invitation.` });
  const now = ctx.clock.now();
  const { token, tokenHash, expiresAt } = newInvitationLink(now);
  const invitation = await ctx.db.transaction(async (tx) => {
    await stillInviting(tx, options.actor);
    await spendInvitationMail(ctx, tx, options.actor, email!);
    const row = await insertInvitation(tx, book, { email: email!, role, tokenHash, invitedBy: options.actor.userId, now, expiresAt });
    await insertTeamEvent(tx, { merchantId: options.actor.merchantId, now, actorUserId: options.actor.userId, actorEmail: options.actor.email, action: 'invite', subjectEmail: row.email, detail: role });
    return row;
  });
  await mailInvitation(ctx, options.actor, invitation, token);
  return invitation;
}

/** A new link for an open invitation of this merchant, mailed again; the old link stops working. */
export async function resendTeamInvitation(ctx: AppContext, options: { actor: TeamActor; invitationId: number }): Promise<InvitationRow> {
  const now = ctx.clock.now();
  const { token, tokenHash, expiresAt } = newInvitationLink(now);
  const invitation = await ctx.db.transaction(async (tx) => {
    await stillInviting(tx, options.actor);
    const row = await reissueInvitation(tx, merchantInvitations(options.actor.merchantId), options.invitationId, { tokenHash, invitedBy: options.actor.userId, now, expiresAt });
    if (!row) throw noSuchInvitation();
    await spendInvitationMail(ctx, tx, options.actor, row.email);
    await insertTeamEvent(tx, { merchantId: options.actor.merchantId, now, actorUserId: options.actor.userId, actorEmail: options.actor.email, action: 'invite_resend', subjectEmail: row.email, detail: row.role });
    return row;
  });
  await mailInvitation(ctx, options.actor, invitation, token);
  return invitation;
}

export async function revokeTeamInvitation(ctx: AppContext, options: { actor: TeamActor; invitationId: number }): Promise<void> {
  const now = ctx.clock.now();
  await ctx.db.transaction(async (tx) => {
    const row = await markRevoked(tx, merchantInvitations(options.actor.merchantId), options.invitationId, now);
    if (!row) throw noSuchInvitation();
    await insertTeamEvent(tx, { merchantId: options.actor.merchantId, now, actorUserId: options.actor.userId, actorEmail: options.actor.email, action: 'invite_revoke', subjectEmail: row.email, detail: row.role });
  });
}

/** An invitation a link names, with its merchant and the account its address has already, if any. */
export interface UsableInvitation {
  invitation: InvitationRow;
  merchantName: string;
  merchantIdx: string;
  /** The person with the invitation's e-mail: they join with their own account. */
  person?: MerchantPerson;
}

/**
 * The invitation a link followed from `ip` names, while it can be accepted.
 * Throws SignInError: 'wrong_code' for a wrong or dead link, 'locked' after too many (link-guesses.ts).
 */
export function usableTeamInvitation(ctx: AppContext, options: { token: string; ip: string }): Promise<UsableInvitation> {
  return followLink(ctx, options.ip, async () => {
    if (!isInvitationToken(options.token)) return undefined;
    const invitation = await findUsableInvitation(ctx.db, MERCHANT_INVITATION_LINKS, invitationTokenHash(options.token), ctx.clock.now());
    const merchant = invitation && (await findMerchantById(ctx.db, invitation.merchant_id!));
    if (!merchant) return undefined;
    return { invitation: invitation!, merchantName: merchant.name, merchantIdx: merchant.idx, person: await findPersonByEmail(ctx.db, invitation!.email) };
  });
}

export function teamPasswordProblem(password: string, email: string): string | undefined {
  if (password.length < TEAM_PASSWORD_MIN_LENGTH) return `Use at least ${TEAM_PASSWORD_MIN_LENGTH} characters.`;
  if (password.length > 256) return 'Use at most 256 characters.';
  if (password.toLowerCase() === email.trim().toLowerCase()) return 'Do not use your e-mail as the password.';
  return undefined;
}

/**
 * How the invitee proves who they are: a new address chooses a password; an address with an account
 * gives its password (and a two-factor code when it has two-factor), or is logged in as it already.
 */
export type InvitationProof = { kind: 'new'; password: string } | { kind: 'account'; password: string; code: string } | { kind: 'session'; personId: number };

const accountNow = () => new AppError('conflict', { detail: 'This address has a Bhuktani account now. Reload this page and join with its password.' });

/** The person the proof stands for, once checked (a new address's is made in the accepting transaction). */
async function provenPerson(ctx: AppContext, usable: UsableInvitation, proof: InvitationProof): Promise<MerchantPerson | undefined> {
  const { person } = usable;
  if (proof.kind === 'new') {
    if (person) throw accountNow();
    const problem = teamPasswordProblem(proof.password, usable.invitation.email);
    if (problem) throw new AppError('validation_error', { fields: { password: [problem] } });
    return undefined;
  }
  if (!person) throw new AppError('conflict', { detail: 'This invitation is for a new account. Reload this page and choose a password.' });
  if (proof.kind === 'session') {
    if (proof.personId !== person.id) throw new AppError('conflict', { detail: `This invitation is for ${person.email}. Log out, then open the link again.` });
    return person;
  }
  // The log-in's own checks and limits: wrong passwords count against the e-mail, wrong codes against the person.
  await checkUserPassword(ctx, { personId: person.id, password: proof.password });
  if (person.totp_enrolled_at) await checkUserCode(ctx, { personId: person.id, code: proof.code, purpose: 'to log in' });
  return person;
}

/**
 * Accepts the invitation `usable` (as usableTeamInvitation found it for the link `token`): the link is
 * spent and the invitee is a user of the team (e-mail verified: they followed the link) in one
 * transaction. Undefined when the link was spent meanwhile. Throws SignInError for a wrong password
 * or code of an existing account.
 */
export async function acceptTeamInvitation(ctx: AppContext, options: { usable: UsableInvitation; token: string; proof: InvitationProof }, log: Log): Promise<MerchantUser | undefined> {
  const { usable, proof } = options;
  const known = await provenPerson(ctx, usable, proof);
  const passwordHash = proof.kind === 'new' ? await hashPassword(proof.password) : undefined;
  const now = ctx.clock.now();
  let user: MerchantUser | undefined;
  try {
    user = await ctx.db.transaction(async (tx) => {
      const accepted = await markAccepted<InvitableRole>(tx, MERCHANT_INVITATION_LINKS, invitationTokenHash(options.token), now);
      if (!accepted) return undefined;
      const merchantId = accepted.merchant_id!;
      const person = known ?? (await insertMerchantPerson(tx, { email: accepted.email, passwordHash: passwordHash!, emailVerifiedAt: now, now }));
      if (known) await markEmailVerified(tx, person.id, now);
      const joined = await insertMerchantUser(tx, { merchantId, personId: person.id, role: accepted.role, now });
      await insertTeamEvent(tx, { merchantId, now, actorUserId: joined.id, actorEmail: joined.email, action: 'join', subjectEmail: joined.email, detail: joined.role });
      return joined;
    });
  } catch (error) {
    if (pgCode(error) !== PgCode.uniqueViolation) throw error;
    // Made meanwhile by another invitation or a sign-up; or in this team already.
    if (/merchant_people_email/.test(String((error as Error).message))) throw accountNow();
    throw new AppError('conflict', { detail: `You are in ${usable.merchantName}'s team already.` });
  }
  if (user) {
    const actor = { userId: user.id, email: user.email, merchantId: user.merchant_id, merchantName: usable.merchantName };
    await notifyOwner(ctx, notice(actor, 'A new user joined your team', [`${user.email} accepted the invitation and joined as ${user.role}.`]), log);
  }
  return user;
}

/** The user, who must be of this merchant and not its owner (the owner's role changes only by a hand-over). */
async function notOwner(ctx: AppContext, actor: TeamActor, userId: number, refusal: string): Promise<MerchantUser> {
  const user = Number.isSafeInteger(userId) ? await findTeamUser(ctx.db, actor.merchantId, userId) : undefined;
  if (!user) throw noSuchUser();
  if (user.role === 'owner') throw new AppError('conflict', { detail: refusal });
  return user;
}

export async function changeTeamRole(ctx: AppContext, options: { actor: TeamActor; userId: number; role: string }, log: Log): Promise<MerchantUser> {
  if (!isInvitable(options.role)) throw roleRefused();
  const to = options.role as MerchantRole;
  const user = await notOwner(ctx, options.actor, options.userId, "The owner's role changes only by handing ownership over to someone else.");
  if (user.role === to) return user;
  const now = ctx.clock.now();
  const revoked = await ctx.db.transaction(async (tx) => {
    if (!(await updateUserRole(tx, { merchantId: options.actor.merchantId, userId: user.id, from: user.role, to }))) {
      throw new AppError('conflict', { detail: "This user's role changed meanwhile. Reload the page and try again." });
    }
    await insertTeamEvent(tx, { merchantId: options.actor.merchantId, now, actorUserId: options.actor.userId, actorEmail: options.actor.email, action: 'role_change', subjectEmail: user.email, detail: `${user.role} → ${to}` });
    return mayInvite(user.role) && !mayInvite(to) ? revokeInvitationsOf(tx, options.actor, user, `is ${to} now and may not invite`, now) : [];
  });
  await notifyOwner(ctx, notice(options.actor, "A team member's role changed", [`${user.email}: ${user.role} → ${to}.`, ...revokedLines(revoked)]), log);
  return { ...user, role: to };
}

/** Removes a user of the team (never the owner); their sessions end, and their open invitations are revoked, in the same transaction. */
export async function removeTeamMember(ctx: AppContext, options: { actor: TeamActor; userId: number }, log: Log): Promise<MerchantUser> {
  const user = await notOwner(ctx, options.actor, options.userId, 'The owner cannot be removed. To leave, hand ownership over first.');
  const now = ctx.clock.now();
  const revoked = await ctx.db.transaction(async (tx) => {
    if (!(await markUserRemoved(tx, { merchantId: options.actor.merchantId, userId: user.id, now }))) throw noSuchUser();
    await insertTeamEvent(tx, { merchantId: options.actor.merchantId, now, actorUserId: options.actor.userId, actorEmail: options.actor.email, action: 'remove', subjectEmail: user.email, detail: user.role });
    return revokeInvitationsOf(tx, options.actor, user, 'was removed', now);
  });
  await notifyOwner(ctx, notice(options.actor, 'A user was removed from your team', [`${user.email} (${user.role}) was removed and logged out.`, ...revokedLines(revoked)]), log);
  return user;
}

/**
 * The owner (the actor) hands ownership over to another user of the team: in one transaction the old
 * owner becomes admin, then the new one owner (the unique index allows one owner at a time). The old
 * owner's invitations stay open: an admin may invite.
 */
export async function handOverOwnership(ctx: AppContext, options: { actor: TeamActor; userId: number }, log: Log): Promise<MerchantUser> {
  const target = Number.isSafeInteger(options.userId) ? await findTeamUser(ctx.db, options.actor.merchantId, options.userId) : undefined;
  if (!target) throw noSuchUser();
  if (target.id === options.actor.userId) throw new AppError('conflict', { detail: 'You are the owner already: choose another user of your team.' });
  const now = ctx.clock.now();
  await ctx.db.transaction(async (tx) => {
    const demoted = await updateUserRole(tx, { merchantId: options.actor.merchantId, userId: options.actor.userId, from: 'owner', to: 'admin' });
    if (!demoted) throw new AppError('conflict', { detail: 'Only the owner can hand ownership over, and you are not the owner any more.' });
    if (!(await updateUserRole(tx, { merchantId: options.actor.merchantId, userId: target.id, from: target.role, to: 'owner' }))) {
      throw new AppError('conflict', { detail: "This user's role changed meanwhile. Reload the page and try again." });
    }
    await insertTeamEvent(tx, { merchantId: options.actor.merchantId, now, actorUserId: options.actor.userId, actorEmail: options.actor.email, action: 'hand_over', subjectEmail: target.email, detail: `${target.role} → owner; ${options.actor.email} owner → admin` });
  });
  await notifyOwner(ctx, notice(options.actor, 'Ownership was handed over', [`${target.email} is the owner now.`, `${options.actor.email}, the owner before, is an admin now.`], options.actor.email), log);
  return { ...target, role: 'owner' };
}
