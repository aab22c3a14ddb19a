// How many e-mails one can make Bhuktani send to other people in a day: invitations to a team or to
// the console, and their resends. Counted in login_failures like reset and verification
// e-mails (sign-in-throttle.ts), so the limits hold across instances; a count lasts one calendar day
// of TIME_ZONE and starts again at the next day's first e-mail.
import type { Queryable } from '../db/db.js';
import { AppError } from '../http/errors.js';
import { addDays, dayStart, localDay } from '../local-days.js';
import { countFailure } from './login-failure-store.js';

/** One count: its scope, how many e-mails it allows a day, and what a refusal says of it. */
export interface MailAllowance {
  scope: string;
  perDay: number;
  refusal: string;
}

/**
 * Spends one e-mail of each allowance in `tx`, the transaction that writes what the e-mail is about:
 * when one is used up for today, throws AppError 'rate_limited' (429, Retry-After the next day's
 * start) with its refusal, and the transaction's rollback takes back the counts with everything else.
 */
export async function spendMailAllowances(tx: Queryable, allowances: MailAllowance[], options: { now: Date; timeZone: string }): Promise<void> {
  const { now, timeZone } = options;
  const today = localDay(now, timeZone);
  for (const allowance of allowances) {
    // One statement counts and returns the count: of two requests at once, one gets the last e-mail.
    if ((await countFailure(tx, allowance.scope, now, dayStart(today, timeZone))) <= allowance.perDay) continue;
    const retryAfter = Math.ceil((dayStart(addDays(today, 1), timeZone).getTime() - now.getTime()) / 1000);
    throw new AppError('rate_limited', {
      detail: `${allowance.refusal} Nothing was sent. Try again tomorrow (after midnight, ${timeZone}).`,
      headers: { 'retry-after': String(retryAfter) },
    });
  }
}

/** Invitation e-mails (the first and each resend) one team, or the console, sends one address a day. */
export const INVITATION_MAILS_PER_ADDRESS = 3;

/** The allowance of invitation e-mails to `email` from the sender whose scope is `sender`. */
export const addressAllowance = (sender: string, email: string): MailAllowance => ({
  scope: `${sender}:to:${email.toLowerCase()}`,
  perDay: INVITATION_MAILS_PER_ADDRESS,
  refusal: `${email} was sent ${INVITATION_MAILS_PER_ADDRESS} invitation e-mails today, the most one address gets in a day.`,
});
