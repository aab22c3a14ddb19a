// Everything known about one payment of the logged-in merchant's environment, for the payment page.
import type { AppContext } from '../context.js';
import { returnAddress } from '../doors/return-address.js';
import { effectiveStatus, type Payment } from '../payments/payment.js';
import type { PaymentStatus } from '../payments/payment-status.js';
import type { Environment } from '../environment.js';
import { findMerchantPayment, listPaymentEvents } from '../payments/payment-store.js';
import { maskMobile } from '../transactions/transaction-record.js';
import { attemptTimelineEntry } from '../provider-payments/attempt-timeline.js';
import { paymentTimeline, type TimelineEntry } from '../payments/payment-timeline.js';
import { returnStatusOf } from '../payments/return-status.js';
import { findPaidThrough, type PaidThrough } from './paid-through.js';

export interface RefundLine {
  idx: string;
  amount: number;
  at: Date;
}

export interface PaymentDetails {
  payment: Payment;
  status: PaymentStatus;
  payer?: { name: string; mobile: string };
  /** Paid through a provider: the way (Fonepay QR, Fonepay), where a wallet payment has its payer. */
  paidThrough?: PaidThrough;
  refunds: RefundLine[];
  timeline: TimelineEntry[];
  /** Where the payer's browser was sent with the result (the door's address); once the attempt ended. */
  callbackUrl?: string;
  refundable: number;
}

export async function readPaymentDetails(
  ctx: AppContext,
  options: { merchantId: number; environment: Environment; pidx: string },
): Promise<PaymentDetails | undefined> {
  const payment = await findMerchantPayment(ctx.db, options.pidx, options.merchantId, options.environment);
  if (!payment) return undefined;
  const status = effectiveStatus(payment, ctx.clock.now());
  const events = await listPaymentEvents(ctx.db, payment.pidx);
  const records = await ctx.db.query<{ idx: string; type: string; amount: number; created_at: Date; payer_name: string }>(
    'SELECT idx, type, amount, created_at, payer_name FROM transactions WHERE pidx = $1 ORDER BY created_at, id',
    [payment.pidx],
  );
  const paid = records.find((r) => r.type !== 'Refund');
  // A held payment was sent back as Pending, whatever the operator decided later.
  const finished = events.some((e) => e.event === 'hold' || e.event === 'provider_hold') ? 'Pending' : returnStatusOf(payment);
  return {
    payment,
    status,
    payer: payment.payer_mobile ? { name: paid?.payer_name ?? '', mobile: maskMobile(payment.payer_mobile) } : undefined,
    paidThrough: (await findPaidThrough(ctx.db, { ...options, pidxs: [payment.pidx] })).get(payment.pidx),
    refunds: records.filter((r) => r.type === 'Refund').map((r) => ({ idx: r.idx, amount: r.amount, at: r.created_at })),
    timeline: paymentTimeline(payment.created_at, events, status === 'Expired' ? payment.expires_at : undefined, attemptTimelineEntry),
    callbackUrl: finished ? await returnAddress(ctx, { payment, status: finished }) : undefined,
    refundable: status === 'Completed' || status === 'Partially refunded' ? payment.amount - payment.refunded_amount : 0,
  };
}
