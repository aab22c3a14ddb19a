// The operator console under /console: server-rendered pages that work without JavaScript, every
// form with a CSRF token bound to the session, every page with the security headers. Every route
// declares what it needs (`config: { permission }`, operator-permissions.ts); one onRequest hook
// checks it, and a route that declares nothing fails to register. The dashboard's merchant session
// means nothing here: operators have their own sessions (src/people/sessions.ts).
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { toAppError } from '../http/error-handler.js';
import { findOperator } from '../people/operator-store.js';
import { findSession, OPERATOR_SESSIONS, sessionCookieOptions } from '../people/sessions.js';
import { registerConsoleAccount } from './account.routes.js';
import { registerConsoleAudit } from './audit.routes.js';
import { isPermission, mayUse } from '../people/operator-permissions.js';
import { forbidden, messagePage, notFound } from './console-pages.js';
import type { ConsoleDeps } from './console-request.js';
import { registerConsoleMerchants } from './merchants.routes.js';
import { registerConsoleInvitation } from './invitation.routes.js';
import { registerConsoleOperators } from './operators.routes.js';
import { registerConsoleOverview } from './overview.routes.js';
import { registerConsolePayments } from './payments.routes.js';
import { registerConsolePayouts } from './payouts.routes.js';
import { registerConsolePayoutRail } from './payout-rail.routes.js';
import { registerConsoleProviders } from './providers.routes.js';
import { registerConsoleSignIn } from './sign-in.routes.js';
import { registerConsoleWallets } from './wallets.routes.js';

/** A console route that does not declare what it needs (`config: { permission }`) fails to register. */
export function refuseUndeclaredRoutes(app: FastifyInstance) {
  app.addHook('onRoute', (route) => {
    const access = route.config?.permission;
    if (access !== 'signed-out' && !isPermission(access)) throw new Error(`console route ${String(route.method)} ${route.url} declares no permission (config: { permission })`);
  });
}

async function consoleRoutes(app: FastifyInstance, deps: ConsoleDeps) {
  const { ctx } = deps;

  refuseUndeclaredRoutes(app);

  app.addHook('onRequest', async (request, reply) => {
    const token = request.cookies[OPERATOR_SESSIONS.cookie];
    const session = token ? await findSession(ctx.db, OPERATOR_SESSIONS, { token, now: ctx.clock.now() }) : undefined;
    const operator = session && (await findOperator(ctx.db, session.accountId));
    if (session && operator && session.stage === 'signed_in') {
      request.operatorSession = { id: session.id, operator: { id: operator.id, email: operator.email, role: operator.role }, expiresAt: session.expiresAt };
    } else if (session && operator) {
      request.halfwaySession = { session, operator };
    } else if (token) {
      reply.clearCookie(OPERATOR_SESSIONS.cookie, sessionCookieOptions(OPERATOR_SESSIONS, ctx.config));
    }
    // Not found has no route config: it needs a signed-in operator like any page, so signed out it tells nothing.
    const access = request.routeOptions.config?.permission ?? 'read';
    if (access === 'signed-out') return;
    if (!request.operatorSession) {
      const next = request.method === 'GET' && request.url !== '/console' ? `?next=${encodeURIComponent(request.url)}` : '';
      return reply.code(303).redirect(`/console/login${next}`);
    }
    if (!mayUse(request.operatorSession.operator.role, access)) return forbidden(deps, request, reply);
  });

  app.setNotFoundHandler((request, reply) => notFound(deps, request, reply));

  app.setErrorHandler((error, request, reply) => {
    const appError = toAppError(error);
    if (appError.status >= 500) request.log.error({ err: error }, 'console request failed');
    const message = appError.status >= 500 ? 'Something went wrong on our side. Try again in a moment.' : appError.message;
    return messagePage(deps, request, reply, appError.status, { title: appError.status >= 500 ? 'Something went wrong' : 'Request not accepted', message });
  });

  registerConsoleSignIn(app, deps);
  registerConsoleInvitation(app, deps);
  registerConsoleOverview(app, deps);
  registerConsolePayments(app, deps);
  registerConsolePayouts(app, deps);
  registerConsolePayoutRail(app, deps);
  registerConsoleProviders(app, deps);
  registerConsoleWallets(app, deps);
  registerConsoleMerchants(app, deps);
  registerConsoleAccount(app, deps);
  registerConsoleOperators(app, deps);
  registerConsoleAudit(app, deps);
}

export async function consolePlugin(app: FastifyInstance, { ctx, csrfSecret }: { ctx: AppContext; csrfSecret: Buffer }) {
  await app.register(consoleRoutes, { prefix: '/console', ctx, csrfSecret });
}
