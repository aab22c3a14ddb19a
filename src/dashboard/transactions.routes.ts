// GET /dashboard/transactions and its CSV. Both read the API's own query (the CSV a page at a time,
// streamed), so the dashboard shows the same records in the same order.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sendCsv } from '../http/csv-stream.js';
import { AppError, type FieldErrors } from '../http/errors.js';
import { linkNames } from '../payment-links/payment-link-store.js';
import { findPaymentStatuses } from '../payments/payment-statuses.js';
import { listFilters, pageOf, pageSizeOf, type ListFilters } from '../transactions/list-query.js';
import { listTransactions } from '../transactions/list-transactions.js';
import { transactionPages } from '../transactions/transaction-pages.js';
import { CSV_HEADER, transactionCsvPages } from './transactions-csv.js';
import { frameOf, notFound } from './dashboard-pages.js';
import { findPaidThrough } from './paid-through.js';
import { doing, queryText, sendPage, sessionOf, type DashboardDeps } from './dashboard-request.js';
import { localDay } from '../local-days.js';
import { transactionsPage, type ListForm } from './transactions-page.js';

const FIELD_NAMES: Record<string, string> = { status: 'Status', from: 'From', to: 'To', search: 'Search' };

function formOf(request: FastifyRequest): ListForm {
  return { q: queryText(request, 'q').trim(), status: queryText(request, 'status'), from: queryText(request, 'from'), to: queryText(request, 'to') };
}

/** The form as the list's filters, or a message saying what is wrong with it. */
function filtersOf(form: ListForm): { filters: ListFilters } | { error: string } {
  const given = Object.fromEntries(Object.entries({ status: form.status, from: form.from, to: form.to }).filter(([, v]) => v !== ''));
  const parsed = listFilters.parse(given);
  if (!parsed.ok) {
    const problems = Object.entries(parsed.error as FieldErrors).map(([name, messages]) => `${FIELD_NAMES[name] ?? name}: ${[messages].flat().join(' ')}`);
    return { error: problems.join(' ') };
  }
  if (form.q.length > 100) return { error: 'Search: enter a pidx or a purchase order id.' };
  return { filters: { ...(parsed.value as ListFilters), ...(form.q ? { search: form.q } : {}) } };
}

export function registerTransactions(app: FastifyInstance, deps: DashboardDeps) {
  const { ctx } = deps;

  app.get('/transactions', doing('view'), async (request, reply) => {
    const session = sessionOf(request);
    const form = formOf(request);
    const frame = frameOf(deps, request, reply, 'transactions');
    const parsed = filtersOf(form);
    if ('error' in parsed) return sendPage(reply, transactionsPage(frame, { form, statuses: new Map(), error: parsed.error }), 400);
    const page = pageOf(request.query && (request.query as Record<string, unknown>).page);
    if (page === undefined) return notFound(deps, request, reply);
    const pageSize = pageSizeOf(queryText(request, 'page_size') || undefined);
    try {
      const list = await listTransactions(ctx, session, { filters: parsed.filters, page, pageSize, pageLink: (n) => `/dashboard/transactions?page=${n}` });
      const statuses = await findPaymentStatuses(ctx.db, {
        merchantId: session.merchant.id,
        environment: session.environment,
        pidxs: list.records.map((r) => r.pidx),
        now: ctx.clock.now(),
      });
      const paidThrough = await findPaidThrough(ctx.db, { merchantId: session.merchant.id, environment: session.environment, pidxs: list.records.map((r) => r.pidx) });
      const links = await linkNames(ctx.db, { merchantId: session.merchant.id, environment: session.environment }, [...new Set(list.records.flatMap((r) => (r.payment_link ? [r.payment_link] : [])))]);
      return sendPage(reply, transactionsPage(frame, { form, page: list, statuses, links, paidThrough }));
    } catch (error) {
      if (error instanceof AppError && error.code === 'invalid_page') return notFound(deps, request, reply);
      throw error;
    }
  });

  app.get('/transactions.csv', doing('transactions.export'), async (request, reply) => {
    const session = sessionOf(request);
    const parsed = filtersOf(formOf(request));
    if ('error' in parsed) return reply.code(400).type('text/plain; charset=utf-8').header('cache-control', 'no-store').send(parsed.error);
    return sendCsv(reply, {
      filename: `bhuktani-${session.environment}-transactions-${localDay(ctx.clock.now(), ctx.config.timeZone)}.csv`,
      header: CSV_HEADER,
      pages: transactionCsvPages(transactionPages(ctx, session, { filters: parsed.filters, pageRows: ctx.config.exportPageRows })),
    });
  });
}
