// A real SMTP server in the test process (smtp-server, parsed with mailparser): the app sends to it
// through SMTP_URL as it would to any mail server, and tests read what arrived.
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll } from 'vitest';
import { watchMail } from './mailbox.js';
import { freePort } from './processes.js';
import { startTestApp, type TestApp } from './test-app.js';

export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
}

export interface MailInbox {
  /** The app's config for this server. */
  config: { smtpUrl: string; mailFrom: string };
  received: ReceivedMail[];
  /** SMTP connections the server has seen opened and closed. */
  connections: { opened: number; closed: number };
  /** The mails to `to`, oldest first. */
  to(address: string): ReceivedMail[];
  close(): Promise<void>;
}

export async function startMailInbox(): Promise<MailInbox> {
  const received: ReceivedMail[] = [];
  const connections = { opened: 0, closed: 0 };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onConnect(_session, accept) {
      connections.opened += 1;
      accept();
    },
    onClose() {
      connections.closed += 1;
    },
    onData(stream, session, done) {
      simpleParser(stream)
        .then((mail) => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            subject: mail.subject ?? '',
            text: mail.text ?? '',
            html: typeof mail.html === 'string' ? mail.html : '',
          });
          done();
        })
        .catch(done);
    },
  });
  const forgetMail = watchMail({ received });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    // Pooled: smtp-server holds every new connection's greeting 100 ms (it listens for clients that
    // talk too soon), and the tests send hundreds of e-mails.
    config: { smtpUrl: `smtp://127.0.0.1:${port}/?pool=true`, mailFrom: 'Bhuktani <no-reply@bhuktani.test>' },
    received,
    connections,
    to: (address) => received.filter((m) => m.to.includes(address.toLowerCase()) || m.to.includes(address)),
    close: () => {
      forgetMail();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * For a test file: its app, whose e-mails go to a real SMTP inbox of its own, both started before the
 * file's tests (then handed to `started`) and closed after them.
 */
export function withMailInbox(started: (opened: { t: TestApp; inbox: MailInbox }) => void): void {
  let opened: { t: TestApp; inbox: MailInbox } | undefined;
  beforeAll(async () => {
    const inbox = await startMailInbox();
    opened = { inbox, t: await startTestApp({ config: inbox.config }) };
    started(opened);
  });
  afterAll(async () => {
    await opened?.t.close();
    await opened?.inbox.close();
  });
}
