// The console's payments: search across merchants, one payment's page, resolving a Pending one.
import { lagging } from '../db/db.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { listAudit } from '../audit/audit-store.js';
import type { Environment } from '../environment.js';
import { AppError } from '../http/errors.js';
import { findMerchantById } from '../merchants/merchant-store.js';
import { effectiveStatus } from '../payments/payment.js';
import { listPendingPayments, searchPayments } from '../payments/payment-search.js';
import { findPayment, listPaymentEvents } from '../payments/payment-store.js';
import { attemptTimelineEntry } from '../provider-payments/attempt-timeline.js';
import { paymentTimeline } from '../payments/payment-timeline.js';
import { resolvePayment } from '../payments/resolve-payment.js';
import { consolePage } from './console-layout.js';
import { formExpired, notFound } from './console-pages.js';
import { mayUse } from '../people/operator-permissions.js';
import { actorOf, type ConsoleDeps, field, formToken, formVerified, operatorOf, queryText, sendPage } from './console-request.js';
import { paymentPageBody, paymentSearchBody } from './payments-pages.js';
import { insecureOtpWarning } from '../wallets/otp-sender.js';

const LIMIT = 50;
const DONE: Record<string, string> = { resolved: 'The payment is resolved.' };

/** A search box's text: trimmed, bounded, without the control characters no id contains (PostgreSQL refuses NUL). */
export const searchTerm = (request: FastifyRequest, name: string) => queryText(request, name).replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, 100);

export const environmentOf = (raw: string): Environment | undefined => (raw === 'live' || raw === 'test' ? raw : undefined);

export function registerConsolePayments(app: FastifyInstance, deps: ConsoleDeps) {
  const { ctx } = deps;
  const timeZone = ctx.config.timeZone;

  app.get('/payments', { config: { permission: 'read' } }, async (request, reply) => {
    const { operator } = operatorOf(request);
    const term = searchTerm(request, 'q');
    const environment = environmentOf(queryText(request, 'environment'));
    const results = term ? await searchPayments(lagging(ctx.db), { term, environment, limit: LIMIT }) : undefined;
    const pending = await listPendingPayments(lagging(ctx.db), { environment, limit: LIMIT });
    const body = paymentSearchBody({ term, environment: environment ?? '', results, pending, timeZone });
    return sendPage(reply, consolePage({ warning: insecureOtpWarning(deps.ctx.config), title: 'Payments', operator, csrf: formToken(deps, request, reply), body, active: 'payments' }));
  });

  async function paymentPage(request: FastifyRequest, reply: FastifyReply, status = 200, error?: string) {
    const { operator } = operatorOf(request);
    const { pidx } = request.params as { pidx: string };
    const payment = await findPayment(ctx.db, pidx);
    if (!payment) return notFound(deps, request, reply, 'payment');
    const merchant = (await findMerchantById(ctx.db, payment.merchant_id))!;
    const shown = effectiveStatus(payment, ctx.clock.now());
    const events = await listPaymentEvents(ctx.db, pidx);
    const csrf = formToken(deps, request, reply);
    const body = paymentPageBody({
      payment,
      status: shown,
      merchant,
      timeline: paymentTimeline(payment.created_at, events, shown === 'Expired' ? payment.expires_at : undefined, attemptTimelineEntry),
      audit: await listAudit(ctx.db, { objectType: 'payment', objectId: pidx, limit: 20 }),
      mayResolve: mayUse(operator.role, 'payments.resolve'),
      csrf,
      timeZone,
      done: DONE[queryText(request, 'done')],
      error,
    });
    return sendPage(reply, consolePage({ warning: insecureOtpWarning(deps.ctx.config), title: `Payment ${payment.purchase_order_id}`, operator, csrf, body, active: 'payments' }), status);
  }

  app.get('/payments/:pidx', { config: { permission: 'read' } }, (request, reply) => paymentPage(request, reply));

  app.post('/payments/:pidx/resolve', { config: { permission: 'payments.resolve' } }, async (request, reply) => {
    if (!formVerified(deps, request)) return formExpired(deps, request, reply);
    const { pidx } = request.params as { pidx: string };
    const resolution = field(request, 'resolution');
    const reason = field(request, 'reason').trim();
    try {
      if (resolution !== 'Completed' && resolution !== 'User canceled') throw new AppError('bad_request', { detail: 'Choose Completed or User canceled.' });
      if (!reason) throw new AppError('bad_request', { detail: 'Give the reason for the decision; it is kept in the audit log.' });
      await resolvePayment(ctx, { actor: actorOf(request), pidx, resolution, reason: reason.slice(0, 500) });
    } catch (error) {
      if (!(error instanceof AppError) || error.code === 'not_found') throw error;
      return paymentPage(request, reply, 400, error.message);
    }
    return reply.code(303).redirect(`/console/payments/${encodeURIComponent(pidx)}?done=resolved`);
  });
}
