// An order read from one of eSewa's forms becomes an ordinary payment (the same hosted page, states,
// ledger, fee, list, refunds, webhooks and settlements): the door only translates. v2's signed
// transaction_uuid names one payment: posted again with the same amounts it resumes that payment (its
// hosted page, or its outcome if it has one); with other amounts it is refused. v1's pid is signed by
// nobody: each post of it is a payment of its own, until one of them is paid.
import type { AppContext } from '../../context.js';
import { liveRefusal } from '../../merchants/approval-state-machine.js';
import type { EsewaCaller } from '../../merchants/esewa-credentials.js';
import { initiateDoorPayment, initiateOnce } from '../../payments/initiate-payment.js';
import { effectiveStatus, type Payment } from '../../payments/payment.js';
import { findPaidDoorPayment } from '../../payments/payment-store.js';
import { paymentUrl } from '../../payments/payment-url.js';
import { breakdownOf } from './esewa-fields.js';
import { refusal } from './esewa-errors.js';
import type { EsewaOrder } from './esewa-order.js';
import { doorFieldsOf, esewaReturnUrl, type EsewaDoorFields } from './esewa-return.js';

/** The address the payer's browser is sent to (302): the hosted page, or where a resumed payment ended. */
export async function startEsewaPayment(ctx: AppContext, caller: EsewaCaller, order: EsewaOrder): Promise<string> {
  // The merchant comes from the credential cache: an approval or suspension shows within KEY_CACHE_SECONDS.
  const closed = caller.environment === 'live' ? liveRefusal(caller.merchant.status) : undefined;
  if (closed) throw refusal(closed);
  const input = {
    return_url: order.successUrl,
    website_url: order.site,
    amount: order.amounts.total,
    purchase_order_id: order.orderId,
    // eSewa's forms name no order: the merchant's id for it is what the hosted page and the lists show.
    purchase_order_name: order.orderId,
    amount_breakdown: breakdownOf(order.amounts),
  };
  const fields: EsewaDoorFields = { product_code: order.productCode, failure_url: order.failureUrl };
  if (order.door === 'esewa-v1') return startV1(ctx, caller, order, () => initiateDoorPayment(ctx, caller, input, { door: 'esewa-v1', fields: { ...fields } }));
  const started = await initiateOnce(ctx, caller, input, { door: 'esewa-v2', fields: { ...fields } });
  if ('created' in started) return started.created.payment_url;
  return resume(ctx, started.existing, order);
}

/**
 * Anyone can post a shop's next pid first, with their own su/fu or other amounts: so a post never
 * resumes an earlier post's unpaid payment (its payer would go back to the earlier addresses), and an
 * earlier unpaid post never refuses this one. Once one payment of the pid is paid (or held), only the
 * very same post goes on to its outcome; any other is refused, and no other payment of it can be paid.
 */
async function startV1(ctx: AppContext, caller: EsewaCaller, order: EsewaOrder, initiate: () => Promise<{ payment_url: string }>): Promise<string> {
  const paid = await findPaidDoorPayment(ctx.db, { merchantId: caller.merchantId, environment: caller.environment, door: 'esewa-v1', purchaseOrderId: order.orderId });
  if (!paid) return (await initiate()).payment_url;
  const samePost = doorFieldsOf(paid).product_code === order.productCode && sameAmounts(paid, order) && paid.return_url === order.successUrl && doorFieldsOf(paid).failure_url === order.failureUrl;
  if (!samePost) throw refusal('This pid was already paid: use a new pid for a new payment.');
  return outcome(ctx, paid);
}

const lines = (breakdown: Payment['amount_breakdown']) => (breakdown ?? []).map((line) => `${line.label}:${line.amount}`).join(';');

const sameAmounts = (payment: Payment, order: EsewaOrder) => payment.amount === order.amounts.total && lines(payment.amount_breakdown) === lines(breakdownOf(order.amounts));

async function resume(ctx: AppContext, payment: Payment, order: EsewaOrder): Promise<string> {
  // The demo merchant answers to two codes (its own and EPAYTEST): one payment, one code.
  if (doorFieldsOf(payment).product_code !== order.productCode) throw refusal('This transaction_uuid was already used for a payment through another product code: use a new transaction_uuid for a new payment.');
  if (!sameAmounts(payment, order)) throw refusal('This transaction_uuid was already used for a payment with other amounts: use a new transaction_uuid for a new payment.');
  // The addresses of the first post stay: they are where that payment sends the payer.
  return outcome(ctx, payment);
}

/** Where a payment posted again sends the browser: its hosted page while it is open or held, else where it ended. */
async function outcome(ctx: AppContext, payment: Payment): Promise<string> {
  switch (effectiveStatus(payment, ctx.clock.now())) {
    case 'Initiated':
    case 'Pending':
      return paymentUrl(ctx.config.publicUrl, payment.pidx);
    case 'Completed':
    case 'Partially refunded':
    case 'Refunded':
      return esewaReturnUrl(ctx, payment, 'COMPLETE');
    case 'User canceled':
    case 'Expired':
      return esewaReturnUrl(ctx, payment, 'CANCELED');
  }
}
