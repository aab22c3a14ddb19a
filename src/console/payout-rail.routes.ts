// The console's payout rail: the rails, the accounts waiting for an operator's approval (approved by
// finance or admins, audited with a reason), and the payouts NPI has not decided.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../http/errors.js';
import { mayUse } from '../people/operator-permissions.js';
import { listWaitingAccountChecks } from '../settlements/account-check-store.js';
import { approveAccount } from '../settlements/account-checks.js';
import { listUndecidedTransfers } from '../settlements/npi-transfer-store.js';
import { listPayoutRails } from '../settlements/payout-rail-setup.js';
import { insecureOtpWarning } from '../wallets/otp-sender.js';
import { consolePage } from './console-layout.js';
import { formExpired } from './console-pages.js';
import { actorOf, type ConsoleDeps, field, formToken, formVerified, operatorOf, queryText, sendPage } from './console-request.js';
import { payoutRailBody, type PayoutRailView } from './payout-rail-pages.js';
import { localDay } from '../local-days.js';
import { reconcilePayouts } from '../settlements/reconcile-payouts.js';

const DONE: Record<string, string> = { approved: 'The account is approved: its payouts go in the next run.' };

export function registerConsolePayoutRail(app: FastifyInstance, deps: ConsoleDeps) {
  const { ctx } = deps;

  async function show(request: FastifyRequest, reply: FastifyReply, status = 200, error?: string) {
    const { operator } = operatorOf(request);
    const csrf = formToken(deps, request, reply);
    const environments = ['live', 'test'] as const;
    const date = queryText(request, 'date');
    const environment = queryText(request, 'env') === 'test' ? 'test' : 'live';
    const reconcile: PayoutRailView['reconcile'] = { date: date || localDay(ctx.clock.now(), 'Asia/Kathmandu'), environment };
    if (date) {
      try {
        reconcile.result = await reconcilePayouts(ctx, { environment, date });
      } catch (error) {
        if (!(error instanceof AppError) || error.status === 500) throw error;
        reconcile.error = Object.values(error.fields ?? {}).flat().join(' ') || error.message;
      }
    }
    const body = payoutRailBody({
      rails: await listPayoutRails(ctx),
      accounts: (await Promise.all(environments.map((e) => listWaitingAccountChecks(ctx.db, e)))).flat(),
      undecided: (await Promise.all(environments.map((e) => listUndecidedTransfers(ctx.db, e)))).flat(),
      mayApprove: mayUse(operator.role, 'payouts.process'),
      reconcile,
      csrf,
      timeZone: ctx.config.timeZone,
      done: DONE[queryText(request, 'done')],
      error,
    });
    return sendPage(reply, consolePage({ warning: insecureOtpWarning(ctx.config), title: 'Payout rail', operator, csrf, body, active: 'payouts' }), status);
  }

  app.get('/payout-rail', { config: { permission: 'read' } }, (request, reply) => show(request, reply));

  app.post('/payout-rail/accounts/:id/approve', { config: { permission: 'payouts.process' } }, async (request, reply) => {
    if (!formVerified(deps, request)) return formExpired(deps, request, reply);
    const checkId = Number((request.params as { id: string }).id);
    if (!Number.isSafeInteger(checkId) || checkId <= 0) return show(request, reply, 404, 'No such account check.');
    try {
      await approveAccount(ctx, { actor: actorOf(request), checkId, reason: field(request, 'reason').slice(0, 500) });
    } catch (error) {
      if (!(error instanceof AppError) || error.status >= 500) throw error;
      return show(request, reply, error.code === 'validation_error' ? 400 : 409, Object.values(error.fields ?? {}).flat().join(' ') || error.message);
    }
    return reply.code(303).redirect('/console/payout-rail?done=approved');
  });
}
