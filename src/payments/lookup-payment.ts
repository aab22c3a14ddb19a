import type { AppContext } from '../context.js';
import { AppError } from '../http/errors.js';
import type { ApiCaller } from '../merchants/merchant.js';
import { effectiveStatus } from './payment.js';
import { failedStatuses, type PaymentStatus } from './payment-status.js';
import { findMerchantPaymentStatus } from './payment-store.js';
import { formatTimestamp } from '../http/timestamp.js';

export interface LookupBody {
  pidx: string;
  total_amount: number;
  status: PaymentStatus;
  transaction_id: string | null;
  fee: number;
  refunded: boolean;
  purchase_order_id: string;
  expires_at: string;
  refunded_amount: number;
}

// Specification 2.4: the transaction id is shown once the payment is a completed transaction.
const showsTransactionId: readonly PaymentStatus[] = ['Completed', 'Partially refunded', 'Refunded'];

/** The lookup answer and its HTTP status (200, or 400 for Expired and User canceled). */
export async function lookupPayment(ctx: AppContext, caller: ApiCaller, pidx: string): Promise<{ httpStatus: 200 | 400; body: LookupBody }> {
  const payment = await findMerchantPaymentStatus(ctx.db, pidx, caller.merchant.id, caller.environment);
  if (!payment) throw new AppError('not_found');
  const status = effectiveStatus(payment, ctx.clock.now());
  return {
    httpStatus: failedStatuses.includes(status) ? 400 : 200,
    body: {
      pidx: payment.pidx,
      total_amount: payment.amount,
      status,
      transaction_id: showsTransactionId.includes(status) ? payment.transaction_id : null,
      fee: payment.fee,
      refunded: payment.refunded_amount > 0,
      purchase_order_id: payment.purchase_order_id,
      expires_at: formatTimestamp(payment.expires_at, ctx.config.timeZone),
      refunded_amount: payment.refunded_amount,
    },
  };
}
