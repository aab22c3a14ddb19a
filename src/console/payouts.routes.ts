// The console's payouts: live payouts by state, the export to the bank (the file `bhuktani payout
// export` writes, and the same move to Processing), and one payout's page where finance marks it
// Paid with the bank's reference or Failed with a reason. Every move is audited by its use case; of
// two operators marking one payout, one wins and the other is told (409).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { listAudit } from '../audit/audit-store.js';
import { sendCsv } from '../http/csv-stream.js';
import { AppError } from '../http/errors.js';
import { localDay } from '../local-days.js';
import { BANK_TRANSFER_HEADER, bankTransferRow } from '../settlements/bank-transfer-csv.js';
import { exportPayouts, LIVE_RAIL_IS_NPI } from '../settlements/export-payouts.js';
import { markPayout } from '../settlements/move-payout.js';
import { findTransfer } from '../settlements/npi-transfer-store.js';
import { findOperatorPayout, listPayoutsInState, waitingPayouts } from '../settlements/operator-payouts-store.js';
import { payoutStates, type PayoutState } from '../settlements/payout.js';
import type { PayoutMove } from '../settlements/payout-state-machine.js';
import { insecureOtpWarning } from '../wallets/otp-sender.js';
import { consolePage } from './console-layout.js';
import { formExpired, notFound } from './console-pages.js';
import { mayUse } from '../people/operator-permissions.js';
import { actorOf, type ConsoleDeps, field, formToken, formVerified, operatorOf, queryText, sendPage } from './console-request.js';
import { payoutListBody, payoutPageBody } from './payouts-pages.js';

const LIMIT = 100;
const DONE: Record<string, string> = {
  nothing: 'No live payouts were waiting: nothing was exported.',
  npi: LIVE_RAIL_IS_NPI,
  paid: 'The payout is marked Paid; the merchant is told by webhook.',
  failed: "The payout is marked Failed; its amount is back in the merchant's available balance.",
};

/** Rows already in hand, as the one page of a CSV download. */
async function* onePage<T>(rows: T) {
  yield rows;
}

const stateOf = (raw: string): PayoutState => (payoutStates as readonly string[]).includes(raw) ? (raw as PayoutState) : 'Requested';

export function registerConsolePayouts(app: FastifyInstance, deps: ConsoleDeps) {
  const { ctx } = deps;
  const timeZone = ctx.config.timeZone;
  const read = { config: { permission: 'read' as const } };
  const finance = { config: { permission: 'payouts.process' as const } };
  const frame = (request: FastifyRequest, reply: FastifyReply, title: string, body: Parameters<typeof consolePage>[0]['body'], csrf: string) =>
    consolePage({ warning: insecureOtpWarning(ctx.config), title, operator: operatorOf(request).operator, csrf, body, active: 'payouts' });

  app.get('/payouts', read, async (request, reply) => {
    const { operator } = operatorOf(request);
    const state = stateOf(queryText(request, 'state'));
    const csrf = formToken(deps, request, reply);
    const body = payoutListBody({
      state,
      payouts: await listPayoutsInState(ctx.db, { environment: 'live', state, limit: LIMIT }),
      waiting: (await waitingPayouts(ctx.db, 'live')).requested,
      mayProcess: mayUse(operator.role, 'payouts.process'),
      csrf,
      timeZone,
      done: DONE[queryText(request, 'done')],
    });
    return sendPage(reply, frame(request, reply, 'Payouts', body, csrf));
  });

  // The file comes back as the answer to the form: the payouts in it are Processing from then on.
  app.post('/payouts/export', finance, async (request, reply) => {
    if (!formVerified(deps, request)) return formExpired(deps, request, reply);
    // The file is this answer, written after the commit: should it be lost on the way, the Processing
    // list's "Download again" gives the same rows.
    let exported: Awaited<ReturnType<typeof exportPayouts>>;
    try {
      exported = await exportPayouts(ctx, { actor: actorOf(request), deliver: async () => {} });
    } catch (error) {
      if (error instanceof AppError && error.code === 'conflict') return reply.code(303).redirect('/console/payouts?done=npi');
      throw error;
    }
    if (!exported.length) return reply.code(303).redirect('/console/payouts?done=nothing');
    const day = localDay(ctx.clock.now(), timeZone);
    return sendCsv(reply, { filename: `bhuktani-payouts-${day}-${exported[0].idx}.csv`, header: BANK_TRANSFER_HEADER, pages: onePage(exported.map(bankTransferRow)) });
  });

  // The file of the payouts already sent (Processing) again, for an export whose download was lost;
  // it moves nothing. Finance only: it carries the full account numbers.
  app.get('/payouts/processing.csv', finance, async (_request, reply) => {
    async function* pages() {
      let after = 0;
      for (;;) {
        const payouts = await listPayoutsInState(ctx.db, { environment: 'live', state: 'Processing', limit: ctx.config.exportPageRows, after });
        if (payouts.length) yield payouts.map(bankTransferRow);
        if (payouts.length < ctx.config.exportPageRows) return;
        after = payouts.at(-1)!.id;
      }
    }
    const day = localDay(ctx.clock.now(), timeZone);
    return sendCsv(reply, { filename: `bhuktani-payouts-processing-${day}.csv`, header: BANK_TRANSFER_HEADER, pages: pages() });
  });

  async function payoutPage(request: FastifyRequest, reply: FastifyReply, status = 200, error?: string) {
    const { operator } = operatorOf(request);
    const { idx } = request.params as { idx: string };
    const payout = await findOperatorPayout(ctx.db, idx);
    if (!payout) return notFound(deps, request, reply, 'payout');
    const csrf = formToken(deps, request, reply);
    const body = payoutPageBody({
      payout,
      transfer: await findTransfer(ctx.db, payout.id),
      audit: await listAudit(ctx.db, { objectType: 'payout', objectId: payout.idx, limit: 20 }),
      mayProcess: mayUse(operator.role, 'payouts.process'),
      csrf,
      timeZone,
      done: DONE[queryText(request, 'done')],
      error,
    });
    return sendPage(reply, frame(request, reply, `Payout ${payout.idx}`, body, csrf), status);
  }

  app.get('/payouts/:idx', read, (request, reply) => payoutPage(request, reply));

  /** Marks the payout of the URL; a refusal is shown on its page: 400 for the form, 409 when its state no longer allows the move. */
  const mark = (done: string, moveOf: (request: FastifyRequest) => PayoutMove) => async (request: FastifyRequest, reply: FastifyReply) => {
    if (!formVerified(deps, request)) return formExpired(deps, request, reply);
    const { idx } = request.params as { idx: string };
    const payout = await findOperatorPayout(ctx.db, idx);
    if (!payout) return notFound(deps, request, reply, 'payout');
    try {
      await markPayout(ctx, { actor: actorOf(request), idx: payout.idx, move: moveOf(request) });
    } catch (error) {
      if (!(error instanceof AppError) || error.status >= 500) throw error;
      if (error.code === 'validation_error') return payoutPage(request, reply, 400, Object.values(error.fields ?? {}).flat().join(' ') || error.message);
      return payoutPage(request, reply, 409, error.message);
    }
    return reply.code(303).redirect(`/console/payouts/${encodeURIComponent(payout.idx)}?done=${done}`);
  };

  app.post('/payouts/:idx/paid', finance, mark('paid', (request) => ({ name: 'pay', reference: field(request, 'reference').slice(0, 100) })));
  app.post('/payouts/:idx/failed', finance, mark('failed', (request) => ({ name: 'fail', reason: field(request, 'reason').slice(0, 500) })));
}
