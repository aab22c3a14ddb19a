// The e-mails of a merchant user's own account: verify the address, reset the password. Plain text,
// and a simple HTML part with the same words (no images).
import { html } from '../http/html.js';
import type { Mail } from '../mail/mailer.js';

function mail(options: { to: string; subject: string; lines: [before: string, link: string, after: string[]] }): Mail {
  const [before, link, after] = options.lines;
  const text = [before, '', link, '', ...after].join('\n');
  const body = html`<p>${before}</p>
<p><a href="${link}">${link}</a></p>
<p>${after.map((line, i) => (i === 0 ? html`${line}` : html`<br>${line}`))}</p>`;
  return { to: options.to, subject: options.subject, text, html: `<!doctype html><html><body>${body.value}</body></html>` };
}

const until = (at: Date, timeZone: string) => `${new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(at)} (${timeZone})`;

export function verifyEmailMail(options: { to: string; link: string; expiresAt: Date; timeZone: string }): Mail {
  return mail({
    to: options.to,
    subject: 'Confirm your e-mail for Bhuktani',
    lines: [
      'Open this link to confirm the e-mail address of your Bhuktani merchant account:',
      options.link,
      [`The link works once, until ${until(options.expiresAt, options.timeZone)}.`, 'Until then you can use test payments, but not apply to go live.', 'If you did not sign up, ignore this e-mail.'],
    ],
  });
}

export function resetPasswordMail(options: { to: string; link: string; expiresAt: Date; timeZone: string }): Mail {
  return mail({
    to: options.to,
    subject: 'Reset your Bhuktani password',
    lines: [
      'Someone (we hope you) asked to reset the password of your Bhuktani merchant account. Open this link to choose a new one:',
      options.link,
      [`The link works once, until ${until(options.expiresAt, options.timeZone)}. Every session of your account ends when the password changes.`, 'If you did not ask, ignore this e-mail: your password stays as it is.'],
    ],
  });
}
