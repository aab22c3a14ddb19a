// A person's password (one for every business they belong to): checked again for step-up, changed
// when logged in (asks the current one), or reset by a single-use e-mailed link valid one hour. A
// change or a reset ends the person's other sessions (all of them for a reset): whoever knew the old
// password is logged out. Both go in the teams' logs (security-acts.ts).
import type { AppContext } from '../context.js';
import { AppError } from '../http/errors.js';
import { EMAIL_FAILURES_BEFORE_LOCK } from '../merchants/log-in.js';
import { endPersonSessions } from '../merchants/merchant-sessions.js';
import { findPersonByEmail, findPersonSecrets, markEmailVerified, updatePasswordHash } from '../merchants/merchant-person-store.js';
import { issueLink, peekLink, spendLink } from './account-links.js';
import { resetPasswordMail } from './account-mail.js';
import { hashPassword, verifyPassword } from './password.js';
import { recordSecurityAct } from './security-acts.js';
import { SignInError } from './sign-in-error.js';
import { countSignInFailure, forgetSignInFailures, lockedForSeconds } from './sign-in-throttle.js';

export const MERCHANT_PASSWORD_MIN_LENGTH = 8;
/** Reset e-mails to one address before more are quietly not sent for a while (no mail bombing). */
export const RESET_MAILS_BEFORE_LOCK = 3;

/** The same rule as at sign-up (create-merchant.ts). Undefined when acceptable. */
export function merchantPasswordProblem(password: string): string | undefined {
  if (password.length < MERCHANT_PASSWORD_MIN_LENGTH) return `Use at least ${MERCHANT_PASSWORD_MIN_LENGTH} characters.`;
  if (password.length > 256) return 'Use at most 256 characters.';
  return undefined;
}

/** The log-in's own scope: wrong passwords here count against the same limit. */
const emailScope = (email: string) => `email:${email.trim().toLowerCase()}`;

/** The person's password, again (step-up, a change): throws SignInError when wrong or locked. */
export async function checkUserPassword(ctx: AppContext, options: { personId: number; password: string }): Promise<void> {
  const now = ctx.clock.now();
  const secrets = await findPersonSecrets(ctx.db, options.personId);
  if (!secrets) throw new SignInError('wrong_credentials');
  const locked = await lockedForSeconds(ctx.db, [emailScope(secrets.email)], now);
  if (locked > 0) throw new SignInError('locked', locked);
  if (await verifyPassword(options.password.slice(0, 256), secrets.passwordHash)) {
    await forgetSignInFailures(ctx.db, emailScope(secrets.email));
    return;
  }
  const lockFor = await countSignInFailure(ctx.db, [[emailScope(secrets.email), EMAIL_FAILURES_BEFORE_LOCK]], now);
  throw lockFor > 0 ? new SignInError('locked', lockFor) : new SignInError('wrong_credentials');
}

/** Changes the password of a logged-in person, after the current one; their other sessions end. */
export async function changeUserPassword(ctx: AppContext, options: { personId: number; sessionId: string; currentPassword: string; newPassword: string }): Promise<void> {
  try {
    await checkUserPassword(ctx, { personId: options.personId, password: options.currentPassword });
  } catch (error) {
    if (!(error instanceof SignInError)) throw error;
    throw new AppError('validation_error', { fields: { current_password: [error.code === 'locked' ? error.message : 'That is not your current password.'] } });
  }
  const problem = merchantPasswordProblem(options.newPassword);
  if (problem) throw new AppError('validation_error', { fields: { new_password: [problem] } });
  const hash = await hashPassword(options.newPassword);
  await ctx.db.transaction(async (tx) => {
    await updatePasswordHash(tx, options.personId, hash);
    await endPersonSessions(tx, { personId: options.personId, except: options.sessionId });
    await recordSecurityAct(tx, { personId: options.personId, act: 'password_change', now: ctx.clock.now() });
  });
}

/**
 * Sends a reset link if a person has this e-mail. The caller answers the same whatever happens here,
 * so the form does not tell who has an account; the e-mail is not waited for (an SMTP round trip
 * would tell by the time taken), its failure goes to `onMailError`.
 */
export async function requestPasswordReset(ctx: AppContext, options: { email: string; onMailError: (error: unknown) => void }): Promise<void> {
  const email = options.email.trim().toLowerCase();
  if (!email || email.length > 254) return;
  const now = ctx.clock.now();
  const scope = `reset-mail:${email}`;
  if ((await lockedForSeconds(ctx.db, [scope], now)) > 0) return;
  await countSignInFailure(ctx.db, [[scope, RESET_MAILS_BEFORE_LOCK]], now);
  const person = await findPersonByEmail(ctx.db, email);
  if (!person) return;
  const { token, expiresAt } = await issueLink(ctx.db, { personId: person.id, purpose: 'reset_password', now });
  const link = `${ctx.config.publicUrl}/dashboard/reset-password/${token}`;
  ctx.mailer.send(resetPasswordMail({ to: person.email, link, expiresAt, timeZone: ctx.config.timeZone })).catch(options.onMailError);
}

/** Whose the link is, while usable (throws SignInError otherwise). */
export const resetLinkOwner = (ctx: AppContext, options: { token: string; ip: string }) => peekLink(ctx, { ...options, purpose: 'reset_password' });

/** Sets the new password and spends the link; every session of the person ends. The e-mail counts as verified. */
export async function resetPassword(ctx: AppContext, options: { token: string; password: string; ip: string }): Promise<{ email: string }> {
  const owner = await resetLinkOwner(ctx, options);
  const problem = merchantPasswordProblem(options.password);
  if (problem) throw new AppError('validation_error', { fields: { password: [problem] } });
  const hash = await hashPassword(options.password);
  const now = ctx.clock.now();
  const personId = await ctx.db.transaction(async (tx) => {
    const spent = await spendLink(tx, { token: options.token, purpose: 'reset_password', now });
    if (spent === undefined) return undefined;
    await updatePasswordHash(tx, spent, hash);
    await markEmailVerified(tx, spent, now);
    await endPersonSessions(tx, { personId: spent });
    await recordSecurityAct(tx, { personId: spent, act: 'password_reset', now });
    return spent;
  });
  if (personId === undefined) throw new SignInError('wrong_code');
  await forgetSignInFailures(ctx.db, emailScope(owner.email));
  return { email: owner.email };
}
