// An operator's browser on the console without JavaScript (the dashboard client's cookie jar and
// CSRF handling), operators made as `bhuktani operator create` makes them, and their TOTP codes at
// the test clock's time.
import type { FastifyInstance } from 'fastify';
import { CLI_ACTOR } from '../src/audit/audit-entry.js';
import type { AppContext } from '../src/context.js';
import { createOperator } from '../src/people/create-operator.js';
import type { OperatorRole } from '../src/people/operator.js';
import { totpCode } from '../src/people/totp.js';
import { merchantBrowser } from './dashboard-client.js';

let counter = 0;

export interface TestOperator {
  id: number;
  email: string;
  password: string;
  role: OperatorRole;
  secret: string;
  recoveryCodes: string[];
}

/** A new enrolled operator with a unique e-mail. */
export async function newOperator(ctx: AppContext, role: OperatorRole = 'admin'): Promise<TestOperator> {
  counter += 1;
  const email = `ops-${role}-${process.pid}-${Date.now()}-${counter}@example.com`;
  const password = 'operator password 1';
  const created = await createOperator(ctx, { email, password, role, actor: CLI_ACTOR });
  return { id: created.operator.id, email, password, role, secret: created.totpSecret, recoveryCodes: created.recoveryCodes };
}

export function operatorBrowser(app: FastifyInstance, ctx: AppContext, options: { remoteAddress?: string } = {}) {
  const browser = merchantBrowser(app, options);
  /** The code the operator's app shows now (by the app's clock). */
  const codeNow = (secret: string) => totpCode(secret, ctx.clock.now());
  return {
    ...browser,
    get csrf() {
      return browser.csrf;
    },
    codeNow,
    /** E-mail and password: answers the password step (303 to the code step when right, which it then opens, as a browser would). */
    async password(email: string, password: string) {
      await browser.get('/console/login');
      const answer = await browser.post('/console/login', { email, password });
      if (answer.status === 303 && answer.location) await browser.get(answer.location);
      return answer;
    },
    /** Both steps; `code` defaults to the TOTP code of now. */
    async signIn(operator: Pick<TestOperator, 'email' | 'password' | 'secret'>, code?: string) {
      const first = await this.password(operator.email, operator.password);
      if (first.status !== 303) throw new Error(`password step answered ${first.status}`);
      return browser.post('/console/login/code', { code: code ?? codeNow(operator.secret) });
    },
  };
}

export type OperatorBrowser = ReturnType<typeof operatorBrowser>;

/** The invitation link (to the console, or a merchant's team on the dashboard) in the last e-mail written to the log for `to` (no SMTP_URL in tests). */
export function invitationLinkFor(logs: string[], to: string, site: 'console' | 'dashboard' = 'console'): string | undefined {
  for (const line of [...logs].reverse()) {
    if (!line.includes('"mail"')) continue;
    const mail = (JSON.parse(line) as { mail?: { to: string; text: string } }).mail;
    if (mail?.to === to) return new RegExp(`/${site}/invitation/[\\w-]{43}`).exec(mail.text)?.[0];
  }
  return undefined;
}

/** An invited operator's whole enrolment in `browser`: password, the app's secret from the page, a code. */
export async function enrolFromLink(browser: OperatorBrowser, link: string, password: string) {
  await browser.get(link);
  const accepted = await browser.post(link, { password, password_again: password });
  if (accepted.location !== '/console/enrol') throw new Error(`accepting answered ${accepted.status} ${accepted.body.slice(0, 300)}`);
  const enrolPage = await browser.get('/console/enrol');
  const secret = /data-secret="([A-Z2-7]+)"/.exec(enrolPage.body)?.[1];
  if (!secret) throw new Error('no secret on the enrolment page');
  const done = await browser.post('/console/enrol', { code: browser.codeNow(secret) });
  const recoveryCodes = [...done.body.matchAll(/<li><code>([a-z0-9]{5}-[a-z0-9]{5})<\/code><\/li>/g)].map((m) => m[1]);
  return { enrolPage, done, secret, recoveryCodes };
}
