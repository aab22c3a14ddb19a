// The merchant website under /dashboard: server-rendered pages that work without JavaScript, every
// form with a CSRF token bound to the session, every page with the security headers. Every route
// needs a session unless it says `config: { public: true }`, and names what it does (`config:
// { action }`, merchant-permissions.ts) for one hook to check against the user's role; a route
// that says neither fails to register, so a new page cannot forget the check.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { pageError, unavailableNotice } from '../http/page-errors.js';
import { findSession, SESSION_COOKIE } from '../merchants/merchant-sessions.js';
import { registerAccount } from './account.routes.js';
import { registerBusiness } from './business.routes.js';
import { registerBusinessSwitch } from './business-switch.route.js';
import { forbidden, messagePage, notFound } from './dashboard-pages.js';
import { isAction, may } from '../people/merchant-permissions.js';
import { safeNext, type DashboardDeps } from './dashboard-request.js';
import { registerEnvironmentSwitch } from './environment.route.js';
import { registerHome } from './home.route.js';
import { registerEsewaKeys } from './esewa-keys.routes.js';
import { registerKeys } from './keys.routes.js';
import { registerLinks } from './links.routes.js';
import { registerPayment } from './payment.routes.js';
import { registerPasswordReset } from './password-reset.routes.js';
import { registerSecurity } from './security.routes.js';
import { registerSettlements } from './settlements.routes.js';
import { registerTeam } from './team.routes.js';
import { registerTransactions } from './transactions.routes.js';
import { registerWebhooks } from './webhooks.routes.js';

/** A dashboard route that is neither public nor names its action fails to register. */
export function refuseUnclassifiedRoutes(app: FastifyInstance) {
  app.addHook('onRoute', (route) => {
    if (route.config?.public === true || isAction(route.config?.action)) return;
    throw new Error(`dashboard route ${String(route.method)} ${route.url} declares no action (config: { action }, merchant-permissions.ts)`);
  });
}

async function dashboardRoutes(app: FastifyInstance, deps: DashboardDeps) {
  const { ctx } = deps;

  refuseUnclassifiedRoutes(app);

  app.addHook('onRequest', async (request, reply) => {
    const session = await findSession(ctx, { token: request.cookies[SESSION_COOKIE] });
    request.merchantSession = session;
    const config = request.routeOptions.config;
    if (config?.public) return;
    if (!session) {
      if (request.cookies[SESSION_COOKIE]) reply.clearCookie(SESSION_COOKIE, { path: '/dashboard' });
      const next = request.method === 'GET' && request.url !== '/dashboard' ? `?next=${encodeURIComponent(request.url)}` : '';
      return reply.code(303).redirect(`/dashboard/login${next}`);
    }
    // Only the password so far: the code, or (the team requires it) the set-up, and nothing else.
    if (session.stage !== 'signed_in' && !config?.halfway) {
      return reply.code(303).redirect(session.stage === 'second_factor' ? '/dashboard/login/code' : '/dashboard/account/two-factor');
    }
    // Not found has no route config: a logged-in user of any role sees it.
    const action = config?.action ?? 'view';
    if (!may(session.user.role, action)) return forbidden(deps, request, reply);
  });

  app.setNotFoundHandler((request, reply) => notFound(deps, request, reply));

  // Also the errors of the session lookup above: while the database is away, a page, not JSON.
  app.setErrorHandler((error, request, reply) => {
    const appError = pageError(error, request, reply);
    const again = { href: (request.method === 'GET' && safeNext(request.url)) || '/dashboard', text: 'Try again' };
    if (appError.code === 'unavailable') return messagePage(deps, request, reply, appError.status, { ...unavailableNotice, link: again });
    const message = appError.status >= 500 ? 'Something went wrong on our side. Try again in a moment.' : appError.message;
    return messagePage(deps, request, reply, appError.status, { title: appError.status >= 500 ? 'Something went wrong' : 'Request not accepted', message, link: { href: '/dashboard', text: 'Back to the dashboard' } });
  });

  registerAccount(app, deps);
  registerEnvironmentSwitch(app, deps);
  registerBusinessSwitch(app, deps);
  registerHome(app, deps);
  registerTransactions(app, deps);
  registerPayment(app, deps);
  registerLinks(app, deps);
  registerKeys(app, deps);
  registerEsewaKeys(app, deps);
  registerWebhooks(app, deps);
  registerBusiness(app, deps);
  registerSettlements(app, deps);
  registerTeam(app, deps);
  registerSecurity(app, deps);
  registerPasswordReset(app, deps);
}

export async function dashboardPlugin(app: FastifyInstance, { ctx, csrfSecret }: { ctx: AppContext; csrfSecret: Buffer }) {
  await app.register(dashboardRoutes, { prefix: '/dashboard', ctx, csrfSecret });
  app.get('/', (_request, reply) => reply.code(302).redirect('/dashboard'));
}
