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
