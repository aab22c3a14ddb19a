// Every e-mail the test apps of this process sent, wherever it went (an app's log without SMTP_URL, or
// a test SMTP inbox), for helpers that follow a link as its addressee would: sign-up, verification.
import type { ReceivedMail } from './mail-inbox.js';

type Source = () => { to: string[]; text: string }[];
const sources = new Set<Source>();

/** The e-mails an app wrote to its log (no SMTP_URL), one JSON line each among the others. */
const mailsInLog = (logs: string[]): Source => () =>
  logs.filter((line) => line.includes('"mail"')).flatMap((line) => {
    const { mail } = JSON.parse(line) as { mail?: { to: string; text: string } };
    return mail ? [{ to: [mail.to], text: mail.text }] : [];
  });

/** Reads the mails of `from` until `forget` is called. */
export function watchMail(from: { logs: string[] } | { received: ReceivedMail[] }): () => void {
  const source: Source = 'logs' in from ? mailsInLog(from.logs) : () => from.received;
  sources.add(source);
  return () => sources.delete(source);
}

/** The path of the last link to `/dashboard/<kind>/<token>` e-mailed to `email`, by any app of this process. */
export function lastMailedLink(email: string, kind: string): string | undefined {
  const pattern = new RegExp(`https?://[^/\\s]+(/dashboard/${kind}/[\\w-]{43})`);
  const mails = [...sources].flatMap((source) => source()).filter((m) => m.to.some((to) => to.toLowerCase() === email.toLowerCase()));
  for (const mail of mails.reverse()) {
    const found = pattern.exec(mail.text);
    if (found) return found[1];
  }
  return undefined;
}
