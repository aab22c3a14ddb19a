// The console's reads of payments across all merchants: a search by any of the payment's ids or the
// payer's mobile, and the queue of Pending payments. Each branch reads one index (pidx and
// transaction_id are unique; purchase_order_id and payer_mobile have theirs, migration 014), so a
// search costs the same with a thousand payments or a hundred million.
import type { Queryable } from '../db/db.js';
import type { Environment } from '../environment.js';
import type { Payment } from './payment.js';

export type PaymentListRow = Pick<
  Payment,
  'pidx' | 'merchant_id' | 'environment' | 'purchase_order_id' | 'purchase_order_name' | 'amount' | 'status' | 'transaction_id' | 'payer_mobile' | 'created_at' | 'expires_at'
> & { merchant_idx: string; merchant_name: string };

const listColumns = 'pidx, merchant_id, environment, purchase_order_id, purchase_order_name, amount, status, transaction_id, payer_mobile, created_at, expires_at';

const withMerchant = (from: string, limit: string) =>
  `SELECT p.*, m.idx AS merchant_idx, m.name AS merchant_name FROM (${from}) p JOIN merchants m ON m.id = p.merchant_id ORDER BY p.created_at DESC, p.pidx LIMIT ${limit}`;

/**
 * Payments whose pidx, transaction_id, purchase_order_id or payer mobile is `term`, newest first,
 * in `environment` if given.
 */
export async function searchPayments(db: Queryable, options: { term: string; environment?: Environment; limit: number }): Promise<PaymentListRow[]> {
  const branch = (where: string) => `(SELECT ${listColumns} FROM payments WHERE ${where} AND ($2::text IS NULL OR environment = $2) ORDER BY created_at DESC LIMIT $3)`;
  const from = [branch('pidx = $1'), branch('transaction_id = $1'), branch('purchase_order_id = $1'), branch('payer_mobile = $1')].join(' UNION ');
  return db.query<PaymentListRow>(withMerchant(from, '$3'), [options.term, options.environment ?? null, options.limit]);
}

/** The payments waiting for an operator's decision, oldest first (partial index payments_pending). */
export async function listPendingPayments(db: Queryable, options: { environment?: Environment; limit: number }): Promise<PaymentListRow[]> {
  return db.query<PaymentListRow>(
    `SELECT p.*, m.idx AS merchant_idx, m.name AS merchant_name
       FROM (SELECT ${listColumns} FROM payments WHERE status = 'Pending' AND ($1::text IS NULL OR environment = $1) ORDER BY created_at LIMIT $2) p
       JOIN merchants m ON m.id = p.merchant_id ORDER BY p.created_at`,
    [options.environment ?? null, options.limit],
  );
}
