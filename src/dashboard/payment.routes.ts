// The payment page and its refund: the form, a confirmation step, then the refund itself through
// refundPayment (the same use case as the API), and back to the page with what happened.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../http/errors.js';
import { formatRupees } from '../http/money.js';
import { refundPayment } from '../payments/refund-payment.js';
import { frameOf, formExpired, notFound } from './dashboard-pages.js';
import { doing, field, formVerified, queryText, sendPage, sessionOf, type DashboardDeps } from './dashboard-request.js';
import { parseRupees } from './format.js';
import { readPaymentDetails, type PaymentDetails } from './payment-details.js';
import { paymentPage, refundConfirmPage, type PaymentPageView } from './payment-page.js';

const PIDX = /^[\w-]{1,64}$/;

/** Pure: the paisa to refund from what was typed, or why not. Empty means everything still refundable. */
export function refundAmount(input: string, refundable: number): { amount: number } | { error: string } {
  if (input.trim() === '') return checkRefund(refundable, refundable);
  const amount = parseRupees(input);
  if (amount === undefined) return { error: 'Enter the amount in rupees, with up to two decimals, for example 250 or 12.50.' };
  return checkRefund(amount, refundable);
}

function checkRefund(amount: number, refundable: number): { amount: number } | { error: string } {
  if (refundable <= 0) return { error: 'This payment cannot be refunded.' };
  if (amount < 1) return { error: 'Enter an amount of at least Rs. 0.01.' };
  if (amount > refundable) return { error: `You can refund at most ${formatRupees(refundable)}.` };
  return { amount };
}

export function registerPayment(app: FastifyInstance, deps: DashboardDeps) {
  const { ctx } = deps;

  async function load(request: FastifyRequest): Promise<PaymentDetails | undefined> {
    const { pidx } = request.params as { pidx: string };
    if (!PIDX.test(pidx)) return undefined;
    const session = sessionOf(request);
    return readPaymentDetails(ctx, { merchantId: session.merchant.id, environment: session.environment, pidx });
  }

  const show = (request: FastifyRequest, reply: FastifyReply, view: PaymentPageView, status = 200) =>
    sendPage(reply, paymentPage(frameOf(deps, request, reply, 'transactions'), view), status);

  app.get('/payments/:pidx', doing('view'), async (request, reply) => {
    const details = await load(request);
    if (!details) return notFound(deps, request, reply, 'payment');
    // After a refund: the refund's own record says what was done, so the message cannot be made up.
    const refunded = details.refunds.find((r) => r.idx === queryText(request, 'refund'));
    const message = refunded ? { tone: 'success' as const, text: `Refunded ${formatRupees(refunded.amount)} to ${details.payer?.mobile ?? 'the payer'}.` } : undefined;
    return show(request, reply, { details, message });
  });

  app.post('/payments/:pidx/refund', doing('refunds.create'), async (request, reply) => {
    if (!formVerified(deps, request)) return formExpired(deps, request, reply);
    const details = await load(request);
    if (!details) return notFound(deps, request, reply, 'payment');
    const input = field(request, 'amount');
    const result = refundAmount(input, details.refundable);
    if ('error' in result) return show(request, reply, { details, refundError: result.error, refundInput: input }, 400);
    return sendPage(reply, refundConfirmPage(frameOf(deps, request, reply, 'transactions'), { details, amount: result.amount }));
  });

  app.post('/payments/:pidx/refund/confirm', doing('refunds.create'), async (request, reply) => {
    if (!formVerified(deps, request)) return formExpired(deps, request, reply);
    const details = await load(request);
    if (!details) return notFound(deps, request, reply, 'payment');
    const { payment } = details;
    const amount = /^\d{1,15}$/.test(field(request, 'amount_paisa')) ? Number(field(request, 'amount_paisa')) : NaN;
    const refusal = (text: string) => show(request, reply, { details, refundError: text }, 400);
    // A second press of Confirm (or another refund meanwhile) finds the payment changed: nothing is refunded twice.
    if (field(request, 'refunded_before') !== String(payment.refunded_amount)) {
      return refusal('This payment changed since you reviewed the refund, so nothing was refunded. Check it and try again.');
    }
    const checked = Number.isSafeInteger(amount) ? checkRefund(amount, details.refundable) : { error: 'The refund amount is missing.' };
    if ('error' in checked) return refusal(checked.error);
    try {
      const session = sessionOf(request);
      const refund = await refundPayment(ctx, { merchantId: session.merchant.id, environment: session.environment }, payment.transaction_id!, amount);
      return reply.code(303).redirect(`/dashboard/payments/${encodeURIComponent(payment.pidx)}?refund=${encodeURIComponent(refund.refundIdx)}`);
    } catch (error) {
      if (!(error instanceof AppError) || error.status >= 500) throw error;
      const current = (await load(request)) ?? details;
      return show(request, reply, { details: current, refundError: `Nothing was refunded: ${error.message}` }, 400);
    }
  });
}
