// The invitation e-mail, to the operator console or a merchant's team: plain text, and a simple HTML
// part with the same words (no images).
import { html } from '../http/html.js';
import type { Mail } from '../mail/mailer.js';

export function invitationMail(options: { to: string; role: string; link: string; invitedBy: string; expiresAt: Date; timeZone: string; place: string; then: string }): Mail {
  const until = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: options.timeZone }).format(options.expiresAt);
  const text = [
    `${options.invitedBy} invited you to ${options.place} as ${options.role}.`,
    '',
    `Open this link to ${options.then}:`,
    options.link,
    '',
    `The link works once, until ${until} (${options.timeZone}).`,
    'If you did not expect this, ignore this e-mail.',
  ].join('\n');
  const body = html`<p>${options.invitedBy} invited you to ${options.place} as <strong>${options.role}</strong>.</p>
<p>Open this link to ${options.then}:</p>
<p><a href="${options.link}">${options.link}</a></p>
<p>The link works once, until ${until} (${options.timeZone}).<br>If you did not expect this, ignore this e-mail.</p>`;
  return { to: options.to, subject: `Your invitation to ${options.place}`, text, html: `<!doctype html><html><body>${body.value}</body></html>` };
}
