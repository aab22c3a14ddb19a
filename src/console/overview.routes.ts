// The console's first page: how the gateway is doing, and the ledger check anyone may run.
import { lagging } from '../db/db.js';
import type { FastifyInstance } from 'fastify';
import { runLedgerVerification } from '../ledger/ledger-verifications.js';
import { consolePage } from './console-layout.js';
import { mayUse } from '../people/operator-permissions.js';
import { formExpired } from './console-pages.js';
import { actorOf, type ConsoleDeps, formToken, formVerified, operatorOf, queryText, sendPage } from './console-request.js';
import { walArchiving } from '../db/wal-archiving-store.js';
import { overviewFigures } from './overview-figures.js';
import { overviewBody } from './overview-page.js';
import { insecureOtpWarning } from '../wallets/otp-sender.js';

export function registerConsoleOverview(app: FastifyInstance, deps: ConsoleDeps) {
  const { ctx } = deps;

  app.get('/', { config: { permission: 'read' } }, async (request, reply) => {
    const { operator } = operatorOf(request);
    const csrf = formToken(deps, request, reply);
    // The archive is the primary's: asked there, never of a replica.
    const [figures, archiving] = await Promise.all([overviewFigures(lagging(ctx.db), { now: ctx.clock.now(), timeZone: ctx.config.timeZone }), walArchiving(ctx.db)]);
    const done = queryText(request, 'done') === 'verified' ? 'Ledger check finished.' : undefined;
    const body = overviewBody({ csrf, figures, archiving, timeZone: ctx.config.timeZone, mayVerify: mayUse(operator.role, 'ledger.verify'), done });
    return sendPage(reply, consolePage({ warning: insecureOtpWarning(deps.ctx.config), title: 'Overview', operator, csrf, body, active: 'overview' }));
  });

  app.post('/ledger/verify', { config: { permission: 'ledger.verify' } }, async (request, reply) => {
    if (!formVerified(deps, request)) return formExpired(deps, request, reply);
    await runLedgerVerification(ctx, { actor: actorOf(request) });
    return reply.code(303).redirect('/console?done=verified');
  });
}
