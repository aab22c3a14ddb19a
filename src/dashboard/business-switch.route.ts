// The switch between the businesses of one person (an accountant for three shops): the session looks
// at the chosen one from then on, with the person's role there. Only the person's own present
// memberships are accepted; any other business, existing or not, is the same not-found page.
import type { FastifyInstance } from 'fastify';
import { switchSessionBusiness } from '../merchants/merchant-sessions.js';
import { formExpired, messagePage } from './dashboard-pages.js';
import { field, formVerified, sessionOf, type DashboardDeps } from './dashboard-request.js';

export function registerBusinessSwitch(app: FastifyInstance, deps: DashboardDeps) {
  // Also from the two-factor set-up a team requires: the other businesses may not require it.
  app.post('/switch-business', { config: { action: 'view', halfway: true } }, async (request, reply) => {
    const session = sessionOf(request);
    if (session.stage === 'second_factor') return reply.code(303).redirect('/dashboard/login/code');
    if (!formVerified(deps, request)) return formExpired(deps, request, reply);
    if (!(await switchSessionBusiness(deps.ctx, { sessionId: session.id, merchantIdx: field(request, 'business') }))) {
      return messagePage(deps, request, reply, 404, { title: 'Business not found', message: 'You are not a user of that business.', link: { href: '/dashboard', text: 'Back to the dashboard' } });
    }
    // Another business's pages are other pages: start at its home.
    return reply.code(303).redirect('/dashboard');
  });
}
