// Writes the records of the merchant transaction list, in the same transaction as the payment move
// (a payment's first record is written by the statement that pays it: payments/completion-store).
import type { Queryable } from '../db/db.js';
import type { Payment } from '../payments/payment.js';
import type { Environment } from '../environment.js';
import { moveCountedState } from './hour-counts.js';
import type { RecordState, RecordType } from './transaction-record.js';

export async function setPaymentRecordState(db: Queryable, transactionId: string, state: RecordState): Promise<void> {
  const [moved] = await db.query<{ merchant_id: number; environment: Environment; created_at: Date; old_state: RecordState }>(
    `UPDATE transactions t SET state = $2 FROM transactions old
      WHERE t.idx = $1 AND t.type <> 'Refund' AND old.id = t.id
      RETURNING t.merchant_id, t.environment, t.created_at, old.state AS old_state`,
    [transactionId, state],
  );
  if (moved && moved.old_state !== state) {
    await moveCountedState(db, { merchantId: moved.merchant_id, environment: moved.environment }, { createdAt: moved.created_at, from: moved.old_state, to: state });
  }
}

/** A `Refund` record, and the payment's record marked refunded; returns its id (a sandbox cover names it). */
export async function insertRefundRecord(db: Queryable, payment: Payment, refund: { idx: string; amount: number; at: Date }): Promise<number> {
  const [row] = await db.query<{ id: number }>(
    `WITH marked AS (
       UPDATE transactions SET refunded = true WHERE idx = $1 AND type <> 'Refund' RETURNING payer_idx, payer_mobile, payer_name
     )
     INSERT INTO transactions (idx, merchant_id, environment, type, state, pidx, purchase_order_id, amount, fee_amount,
       payer_idx, payer_mobile, payer_name, created_at, payment_link)
     SELECT $2, $3, $4, 'Refund', 'Completed', $5, $6, $7, 0, payer_idx, payer_mobile, payer_name, $8, $9 FROM marked RETURNING id`,
    [payment.transaction_id, refund.idx, payment.merchant_id, payment.environment, payment.pidx, payment.purchase_order_id, refund.amount, refund.at, payment.payment_link],
  );
  return row.id;
}

export interface RecentRecord {
  idx: string;
  pidx: string;
  type: string;
  state: string;
  purchase_order_id: string;
  amount: number;
  created_at: Date;
}

/** A merchant's newest transaction records in one environment (index transactions_list). */
export async function recentRecords(db: Queryable, options: { merchantId: number; environment: Environment; limit: number }): Promise<RecentRecord[]> {
  return db.query<RecentRecord>(
    `SELECT idx, pidx, type, state, purchase_order_id, amount, created_at FROM transactions
      WHERE merchant_id = $1 AND environment = $2 ORDER BY created_at DESC, id DESC LIMIT $3`,
    [options.merchantId, options.environment, options.limit],
  );
}

/** The record of a payment paid (or held) through a provider: who paid is the provider's, not Bhuktani's to show. */
export async function insertProviderPaymentRecord(db: Queryable, payment: Payment, record: { type: RecordType; state: RecordState; at: Date }): Promise<void> {
  await db.query(
    `INSERT INTO transactions (idx, merchant_id, environment, type, state, pidx, purchase_order_id, amount, fee_amount, payer_idx, payer_mobile, payer_name, created_at, payment_link)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, '', '', '', $10, $11)`,
    [payment.transaction_id, payment.merchant_id, payment.environment, record.type, record.state, payment.pidx, payment.purchase_order_id, payment.amount, payment.fee, record.at, payment.payment_link ?? null],
  );
}
