// The console's classifications for the isolation suite: every console route says what it needs
// (a permission of operator-permissions.ts, or 'signed-out'), and its attempts prove it: a signed-out
// browser and a merchant's dashboard session (its cookie sent along) are sent to sign in, every
// operator role without the permission gets the 403 page — crafted POSTs with a valid CSRF token
// of the operator's own session included — and a role with it can read the page.
import { expect } from 'vitest';
import { mayUse, type Permission } from '../../src/people/operator-permissions.js';
import { OPERATOR_ROLES, type OperatorRole } from '../../src/people/operator.js';
import { newOperator, operatorBrowser } from '../console-client.js';
import type { MerchantBrowser } from '../dashboard-client.js';
import type { Answered, Attempt, World } from './isolation-helper.js';

const ALL: Attempt['hidden'] = ['merchant', 'test', 'live'];

let signedIn: Promise<Record<OperatorRole, MerchantBrowser>> | undefined;

/** One signed-in browser per role, made once for the whole suite. */
function operatorsOf(w: World): Promise<Record<OperatorRole, MerchantBrowser>> {
  signedIn ??= (async () => {
    const browsers = {} as Record<OperatorRole, MerchantBrowser>;
    for (const role of OPERATOR_ROLES) {
      const operator = await newOperator(w.t.ctx, role);
      const browser = operatorBrowser(w.t.app, w.t.ctx);
      expect((await browser.signIn(operator)).status).toBe(303);
      browsers[role] = browser;
    }
    return browsers;
  })();
  return signedIn;
}

const toSignIn = (a: Answered) => {
  expect(a.status).toBe(303);
  expect(a.location).toMatch(/^\/console\/login/);
};

export interface ConsoleClassification {
  scope: 'console';
  reason: string;
  attempts: (w: World) => Promise<Attempt[]>;
}

/** A console route that needs `permission`; `body` is what a crafted POST sends. */
export function consoleRoute(permission: Permission, method: 'GET' | 'POST', url: string, body: Record<string, unknown> = {}): ConsoleClassification {
  const allowed = OPERATOR_ROLES.filter((role) => mayUse(role, permission));
  return {
    scope: 'console',
    reason: `operators whose role may ${permission} (${allowed.join(', ')}); refuses a signed-out browser, a merchant session and every other role`,
    attempts: async (w) => {
      const operators = await operatorsOf(w);
      const sent = { method, url, body: method === 'POST' ? body : undefined, refresh: '/console' };
      const attempts: Attempt[] = [
        { what: 'a signed-out browser', by: { anonymous: true }, ...sent, expect: toSignIn, hidden: ALL },
        { what: "a merchant's dashboard session", by: { browser: 'bTest' }, ...sent, refresh: '/dashboard', expect: toSignIn, hidden: ALL },
        { what: "A's own dashboard session", by: { browser: 'aTest' }, ...sent, refresh: '/dashboard', expect: toSignIn, hidden: ALL },
      ];
      for (const role of OPERATOR_ROLES) {
        if (!mayUse(role, permission)) attempts.push({ what: `an operator with role ${role}`, by: { browser: operators[role] }, ...sent, expect: 'forbidden', hidden: ALL });
        else if (method === 'GET') attempts.push({ what: `an operator with role ${role} (allowed)`, by: { browser: operators[role] }, ...sent, expect: (a) => expect(a.status).toBe(200), hidden: [] });
      }
      return attempts;
    },
  };
}

/** A console page of one object (a payment, a wallet, a merchant): its URL is found in the world. */
export function consoleRouteOf(permission: Permission, urlOf: (w: World) => Promise<string>): ConsoleClassification {
  const { scope, reason } = consoleRoute(permission, 'GET', '');
  return { scope, reason, attempts: async (w) => consoleRoute(permission, 'GET', await urlOf(w)).attempts(w) };
}

/** A page before sign-in: nobody's data, whoever asks; its forms refuse a post without their token. */
export function consoleSignedOutRoute(reason: string, method: 'GET' | 'POST', url: string, body: Record<string, unknown> = {}): ConsoleClassification {
  return {
    scope: 'console',
    reason: `before sign-in: ${reason}`,
    attempts: async () => {
      const expectation = (a: Answered) => (method === 'GET' ? expect([200, 303, 404]).toContain(a.status) : expect([303, 403, 404]).toContain(a.status));
      const sent = { method, url, body: method === 'POST' ? body : undefined, refresh: '/dashboard' };
      return [
        { what: 'a signed-out browser', by: { anonymous: true }, ...sent, expect: expectation, hidden: ALL },
        { what: "a merchant's dashboard session", by: { browser: 'bTest' }, ...sent, expect: expectation, hidden: ALL },
      ];
    },
  };
}
