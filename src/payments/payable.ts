import type { Queryable } from '../db/db.js';
import { effectiveStatus, type Payment } from './payment.js';
import { PayerError } from './payer-error.js';

/** Another pidx of the same order that holds or took the money. */
export async function orderPaidElsewhere(db: Queryable, payment: Payment): Promise<boolean> {
  const rows = await db.query(
    `SELECT 1 FROM payments WHERE merchant_id = $1 AND environment = $2 AND purchase_order_id = $3 AND pidx <> $4
        AND status IN ('Pending', 'Completed', 'Partially refunded', 'Refunded') LIMIT 1`,
    [payment.merchant_id, payment.environment, payment.purchase_order_id, payment.pidx],
  );
  return rows.length > 0;
}

/** Throws the payer's reason when `payment`'s own status does not let it be paid now. */
export function assertPayableStatus(payment: Payment, now: Date): void {
  const status = effectiveStatus(payment, now);
  if (status === 'Expired') throw new PayerError('payment_expired');
  if (status !== 'Initiated') throw new PayerError('not_payable');
}

/** Throws the payer's reason when `payment` cannot be paid now. */
export async function assertPayable(db: Queryable, payment: Payment, now: Date): Promise<void> {
  assertPayableStatus(payment, now);
  if (await orderPaidElsewhere(db, payment)) throw new PayerError('order_paid');
}
