// E-mail verification: a single-use link valid 24 hours, for a person whose e-mail is not verified
// (signed up before sign-ups were confirmed by e-mail). Until it is followed they may use test
// payments but not apply to go live or ask for live payouts.
import type { AppContext } from '../context.js';
import { markEmailVerified } from '../merchants/merchant-person-store.js';
import { issueLink, peekLink, spendLink } from './account-links.js';
import { verifyEmailMail } from './account-mail.js';
import { recordSecurityAct } from './security-acts.js';
import { SignInError } from './sign-in-error.js';
import { countSignInFailure, lockedForSeconds } from './sign-in-throttle.js';

/** Links sent to one person before more wait a while (30 s, doubling): no mail bombing with "send again". */
export const VERIFY_MAILS_BEFORE_LOCK = 3;

/** Sends a new verification link (an older one stops working); false when too many were sent just now. */
export async function sendVerificationEmail(ctx: AppContext, person: { personId: number; email: string; emailVerifiedAt: Date | null }): Promise<boolean> {
  if (person.emailVerifiedAt) return true;
  const scope = `verify-mail:person:${person.personId}`;
  if ((await lockedForSeconds(ctx.db, [scope], ctx.clock.now())) > 0) return false;
  await countSignInFailure(ctx.db, [[scope, VERIFY_MAILS_BEFORE_LOCK]], ctx.clock.now());
  const { token, expiresAt } = await issueLink(ctx.db, { personId: person.personId, purpose: 'verify_email', now: ctx.clock.now() });
  const link = `${ctx.config.publicUrl}/dashboard/verify-email/${token}`;
  await ctx.mailer.send(verifyEmailMail({ to: person.email, link, expiresAt, timeZone: ctx.config.timeZone }));
  return true;
}

/** Follows a link: the person's e-mail is verified (throws SignInError for a bad, used or expired link). */
export async function verifyEmail(ctx: AppContext, options: { token: string; ip: string }): Promise<{ personId: number; email: string }> {
  const owner = await peekLink(ctx, { ...options, purpose: 'verify_email' });
  const spent = await ctx.db.transaction(async (tx) => {
    const personId = await spendLink(tx, { token: options.token, purpose: 'verify_email', now: ctx.clock.now() });
    // Recorded once: a reset link may have verified it meanwhile.
    if (personId !== undefined && (await markEmailVerified(tx, personId, ctx.clock.now()))) {
      await recordSecurityAct(tx, { personId, act: 'email_confirmed', now: ctx.clock.now() });
    }
    return personId;
  });
  if (spent === undefined) throw new SignInError('wrong_code');
  return owner;
}

/** What a person not yet verified may not do, and why (a clear refusal for the route to show). */
export const UNVERIFIED_MESSAGE = 'Confirm your e-mail address first: follow the link we sent you (or send it again from the notice above).';
