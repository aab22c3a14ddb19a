// GET /dashboard/settlements and its forms (request a payout, the automatic schedule), and a payout's
// statement as a page and as CSV. Only the session's own merchant, in the session's environment.
// What each role may do is merchant-permissions.ts': every role looks; `payouts.request` asks for
// payouts and sets the schedule; the statement's CSV is an export like the transactions'.
import { UNVERIFIED_MESSAGE } from '../people/merchant-user-email.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendCsv } from '../http/csv-stream.js';
import { AppError } from '../http/errors.js';
import { formatRupees } from '../http/money.js';
import { findBankAccount } from '../merchants/bank-account-store.js';
import { choosePayoutSchedule } from '../settlements/choose-payout-schedule.js';
import { findPayoutSchedule } from '../settlements/payout-schedule-store.js';
import { findOwnPayout, listPayouts } from '../settlements/payout-store.js';
import { requestPayout } from '../settlements/request-payout.js';
import { settlementBalance } from '../settlements/settlement-balance.js';
import { statementTotalsOfSums } from '../settlements/statement.js';
import { statementRecords, statementSums } from '../settlements/statement-store.js';
import { formExpired, frameOf, notFound } from './dashboard-pages.js';
import { doing, field, fieldMessages, formVerified, queryText, sendPage, sessionOf, type DashboardDeps } from './dashboard-request.js';
import { userMay } from './layout.js';
import { parseRupees } from './format.js';
import { settlementsPage, type SettlementsView } from './settlements-page.js';
import { STATEMENT_CSV_HEADER, statementCsvRows } from './statement-csv.js';
import { statementPage } from './statement-page.js';

/** The latest payouts the page lists; older ones are in the API's list. */
const LISTED = 50;
/** The records a statement page shows; the CSV has them all. */
const SHOWN_RECORDS = 200;
const DONE: Record<string, string> = {
  requested: 'Payout requested. It moves to Processing when it is sent to your bank.',
  schedule: 'Automatic payouts saved.',
};

export function registerSettlements(app: FastifyInstance, deps: DashboardDeps) {
  const { ctx } = deps;
  const owner = (request: FastifyRequest) => {
    const { merchant, environment } = sessionOf(request);
    return { merchantId: merchant.id, environment };
  };

  async function show(request: FastifyRequest, reply: FastifyReply, extra: Partial<SettlementsView> = {}, status = 200) {
    const session = sessionOf(request);
    const view: SettlementsView = {
      balance: await settlementBalance(ctx, owner(request)),
      holdHours: ctx.config.settlementHoldHours,
      bankAccount: await findBankAccount(ctx.db, session.merchant.id),
      payouts: (await listPayouts(ctx.db, owner(request), { limit: LISTED, offset: 0 })).payouts,
      listed: LISTED,
      schedule: await findPayoutSchedule(ctx.db, session.merchant.id, session.environment),
      mayRequest: userMay(session, 'payouts.request'),
      done: DONE[queryText(request, 'done')],
      ...extra,
    };
    return sendPage(reply, settlementsPage(frameOf(deps, request, reply, 'settlements'), view), status);
  }

  app.get('/settlements', doing('view'), (request, reply) => show(request, reply));

  app.post('/settlements/payouts', doing('payouts.request'), async (request, reply) => {
    if (!formVerified(deps, request)) return formExpired(deps, request, reply);
    const session = sessionOf(request);
    const values = { payout: field(request, 'payout') === 'amount' ? 'amount' : 'all', amount: field(request, 'amount').trim() };
    const amount = values.payout === 'all' ? undefined : parseRupees(values.amount);
    // Live money goes out only at the request of someone whose e-mail is confirmed; a
    // merchant not approved is told that first, by the use case.
    if (session.environment === 'live' && session.merchant.status === 'approved' && !session.user.email_verified_at) return show(request, reply, { values, message: UNVERIFIED_MESSAGE }, 403);
    if (values.payout === 'amount' && !amount) {
      return show(request, reply, { values, errors: { amount: 'Enter an amount in rupees greater than zero, e.g. 5000 or 5,000.50.' } }, 400);
    }
    try {
      await requestPayout(ctx, { ...owner(request), amount, requestedBy: session.user.email });
    } catch (error) {
      if (!(error instanceof AppError) || error.status >= 500) throw error;
      if (error.fields?.amount) {
        // The use case counts in paisa, for the API; a person is told in rupees.
        const { available } = await settlementBalance(ctx, owner(request));
        return show(request, reply, { values, errors: { amount: `That is more than is available: at most ${formatRupees(available)}.` } }, error.status);
      }
      return show(request, reply, { values, message: error.message }, error.status);
    }
    return reply.code(303).redirect('/dashboard/settlements?done=requested');
  });

  app.post('/settlements/schedule', doing('payouts.request'), async (request, reply) => {
    if (!formVerified(deps, request)) return formExpired(deps, request, reply);
    const session = sessionOf(request);
    const values = { frequency: field(request, 'frequency'), weekday: field(request, 'weekday'), minimum_amount: field(request, 'minimum_amount').trim() };
    const frequency = values.frequency === 'daily' || values.frequency === 'weekly' ? values.frequency : values.frequency === 'none' ? 'none' : undefined;
    // A live schedule sends money out in its chooser's name, so it asks what a live payout asks.
    if (session.environment === 'live' && frequency !== 'none' && !session.user.email_verified_at) return show(request, reply, { values, message: UNVERIFIED_MESSAGE }, 403);
    try {
      if (!frequency) throw new AppError('validation_error', { fields: { frequency: ['Choose how often to pay out.'] } });
      await choosePayoutSchedule(ctx, {
        merchantId: session.merchant.id,
        environment: session.environment,
        choice: { frequency, weekday: /^[0-6]$/.test(values.weekday) ? Number(values.weekday) : undefined, minimumAmount: values.minimum_amount === '' ? 0 : parseRupees(values.minimum_amount) },
      });
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'validation_error') throw error;
      return show(request, reply, { values, errors: fieldMessages(error), message: 'Please correct the schedule.' }, 400);
    }
    return reply.code(303).redirect('/dashboard/settlements?done=schedule');
  });

  /** The payout of the URL, the session's merchant's and environment's only; another's is not found. */
  const ownPayout = (request: FastifyRequest) => findOwnPayout(ctx.db, owner(request), (request.params as { idx: string }).idx);

  app.get('/settlements/:idx', doing('view'), async (request, reply) => {
    const payout = await ownPayout(request);
    if (!payout) return notFound(deps, request, reply, 'payout');
    const records = await statementRecords(ctx.db, payout.id, { limit: SHOWN_RECORDS });
    const sums = await statementSums(ctx.db, payout.id);
    return sendPage(reply, statementPage(frameOf(deps, request, reply, 'settlements'), { payout, records, recordCount: sums.records, totals: statementTotalsOfSums(payout, sums) }));
  });

  app.get('/settlements/:idx/statement.csv', doing('transactions.export'), async (request, reply) => {
    const payout = await ownPayout(request);
    if (!payout) return notFound(deps, request, reply, 'payout');
    return sendCsv(reply, {
      filename: `bhuktani-${payout.environment}-payout-${payout.idx}.csv`,
      header: STATEMENT_CSV_HEADER,
      pages: statementCsvRows(ctx, payout),
    });
  });
}
