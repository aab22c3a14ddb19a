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

export function finishSignUpMail(options: { to: string; name: string; link: string; expiresAt: Date; timeZone: string }): Mail {
  return mail({
    to: options.to,
    subject: 'Finish signing up for Bhuktani',
    lines: [
      `Open this link to create the Bhuktani merchant account of ${options.name}; your test and live secret keys are shown there:`,
      options.link,
      [`The link works once, until ${until(options.expiresAt, options.timeZone)}.`, 'If you did not sign up, ignore this e-mail: nothing is created without it.'],
    ],
  });
}

/** To an address that has an account already, when someone signs up with it: nothing was created. */
export function signUpTakenMail(options: { to: string; logInLink: string; resetLink: string }): Mail {
  return mail({
    to: options.to,
    subject: 'Someone tried to sign up for Bhuktani with your e-mail',
    lines: [
      'Someone (we hope you) tried to sign up for Bhuktani with this address, but you already have an account: nothing new was created. Log in here:',
      options.logInLink,
      [`Forgot your password? Set a new one: ${options.resetLink}`, 'If it was not you, ignore this e-mail: your account stays as it is.'],
    ],
  });
}
