import type { FastifyInstance } from 'fastify';
import { findPaymentStatuses } from '../payments/payment-statuses.js';
import { listTransactions } from '../transactions/list-transactions.js';
import { frameOf } from './dashboard-pages.js';
import { doing, sendPage, sessionOf, type DashboardDeps } from './dashboard-request.js';
import { readHomeFigures } from './home-figures.js';
import { homePage } from './home-page.js';
import { findPaidThrough } from './paid-through.js';

const RECENT = 5;

export function registerHome(app: FastifyInstance, deps: DashboardDeps) {
  const { ctx } = deps;
  app.get('/', doing('view'), async (request, reply) => {
    const session = sessionOf(request);
    const owner = { merchantId: session.merchant.id, environment: session.environment };
    const figures = await readHomeFigures(ctx, owner);
    const recent = await listTransactions(ctx, session, { filters: {}, page: 1, pageSize: RECENT, pageLink: () => '' });
    const statuses = await findPaymentStatuses(ctx.db, { ...owner, pidxs: recent.records.map((r) => r.pidx), now: ctx.clock.now() });
    const paidThrough = await findPaidThrough(ctx.db, { ...owner, pidxs: recent.records.map((r) => r.pidx) });
    return sendPage(reply, homePage(frameOf(deps, request, reply, 'home'), { figures, recent: recent.records, statuses, paidThrough }));
  });
}
