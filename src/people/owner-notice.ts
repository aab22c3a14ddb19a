// The e-mail to a merchant's owner when something that guards their money changes: the team, the
// settlement bank account, a live key. One function for all, sent after the change has committed;
// a mail server that is down does not undo the change (the failure is logged).
import type { AppContext } from '../context.js';
import { html } from '../http/html.js';
import type { Mail } from '../mail/mailer.js';
import { findOwner } from './merchant-team-store.js';

export interface OwnerNotice {
  merchantId: number;
  merchantName: string;
  /** What changed, for the subject: "A live secret key was rotated". */
  what: string;
  /** Who did it (their e-mail), and the details, a line each. */
  by: string;
  lines: string[];
  /** Someone else who must hear of it too (the previous owner after a hand-over). */
  alsoTo?: string;
}

export function ownerNoticeMail(to: string, notice: OwnerNotice, dashboardUrl: string): Mail {
  const text = [
    `${notice.what} on ${notice.merchantName}'s Bhuktani account, by ${notice.by}.`,
    '',
    ...notice.lines,
    '',
    `See your dashboard: ${dashboardUrl}`,
    'If this was not expected, log in, check your team and keys, and contact support.',
  ].join('\n');
  const body = html`<p>${notice.what} on ${notice.merchantName}'s Bhuktani account, by ${notice.by}.</p>
<p>${notice.lines.map((line, i) => html`${i > 0 ? html`<br>` : ''}${line}`)}</p>
<p>See your dashboard: <a href="${dashboardUrl}">${dashboardUrl}</a><br>If this was not expected, log in, check your team and keys, and contact support.</p>`;
  return { to, subject: `${notice.what} · ${notice.merchantName}`, text, html: `<!doctype html><html><body>${body.value}</body></html>` };
}

/** Tells the merchant's owner (and `alsoTo`) what changed. */
export async function notifyOwner(ctx: AppContext, notice: OwnerNotice, log: { error(object: object, message: string): void }): Promise<void> {
  const owner = await findOwner(ctx.db, notice.merchantId);
  const recipients = [...new Set([owner?.email, notice.alsoTo].filter((to): to is string => Boolean(to)))];
  for (const to of recipients) {
    try {
      await ctx.mailer.send(ownerNoticeMail(to, notice, `${ctx.config.publicUrl}/dashboard`));
    } catch (error) {
      log.error({ err: error, merchantId: notice.merchantId }, 'owner notice not sent');
    }
  }
}
