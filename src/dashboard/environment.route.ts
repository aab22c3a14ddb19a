// The switch between test and live data. The choice is kept in the session; every page, list,
// export and refund then works on that environment only.
import type { FastifyInstance } from 'fastify';
import { switchSessionEnvironment } from '../merchants/merchant-sessions.js';
import { formExpired } from './dashboard-pages.js';
import { doing, field, formVerified, safeNext, sessionOf, type DashboardDeps } from './dashboard-request.js';

/** Back to the same kind of page; a payment belongs to one environment, so from it to the list. */
function backTo(path: string): string {
  const safe = safeNext(path) ?? '/dashboard';
  if (safe.startsWith('/dashboard/payments/')) return '/dashboard/transactions';
  // A filtered list of the other environment would be a list of different things: start afresh.
  if (safe.startsWith('/dashboard/transactions')) return '/dashboard/transactions';
  return safe;
}

export function registerEnvironmentSwitch(app: FastifyInstance, deps: DashboardDeps) {
  app.post('/environment', doing('view'), async (request, reply) => {
    if (!formVerified(deps, request)) return formExpired(deps, request, reply);
    const environment = field(request, 'environment');
    if (environment === 'test' || environment === 'live') {
      await switchSessionEnvironment(deps.ctx, { sessionId: sessionOf(request).id, environment });
    }
    return reply.code(303).redirect(backTo(field(request, 'back')));
  });
}
