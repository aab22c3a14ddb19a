// The one way the gateway sends e-mail (operator and merchant-team invitations, the e-mails to a
// merchant's owner; resets later). Over SMTP when SMTP_URL is set, otherwise each e-mail goes to the server log, so a
// sandbox needs nothing else. Plain text with a simple HTML part, no remote images.
import { createRequire } from 'node:module';
import type { Config } from '../config.js';

// nodemailer is loaded when SMTP_URL is set, not on every start.
const load = createRequire(import.meta.url);

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  /** `log` when e-mails go to the server log (no SMTP_URL), `smtp` otherwise. */
  readonly kind: 'log' | 'smtp';
  send(mail: Mail): Promise<void>;
  /** Ends the SMTP connections kept open (`?pool=true`); nothing to end otherwise. */
  close(): Promise<void>;
}

export function createMailer(config: Pick<Config, 'smtpUrl' | 'mailFrom'>, log: { info(object: object, message: string): void }): Mailer {
  if (!config.smtpUrl) {
    return {
      kind: 'log',
      async send(mail) {
        log.info({ mail: { to: mail.to, subject: mail.subject, text: mail.text } }, 'e-mail (no SMTP_URL set: written to the log instead of sent)');
      },
      async close() {},
    };
  }
  const nodemailer = load('nodemailer') as typeof import('nodemailer');
  const transport = nodemailer.createTransport(config.smtpUrl);
  return {
    kind: 'smtp',
    async send(mail) {
      await transport.sendMail({ from: config.mailFrom, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
    },
    async close() {
      transport.close();
    },
  };
}
