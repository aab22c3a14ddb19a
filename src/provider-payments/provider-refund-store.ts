// The SQL of money owed back to payers at providers (migration 040's provider_refunds).
import type { Queryable } from '../db/db.js';
import type { Environment } from '../environment.js';
import type { ProviderName } from '../providers/registry.js';

export interface ProviderRefund {
  id: number;
  idx: string;
  attempt_id: number;
  environment: Environment;
  provider: ProviderName;
  amount: number;
  reason: 'refund' | 'surplus';
  refund_record_id: number | null;
  state: 'Queued' | 'Refunded';
  tries: number;
  next_try_at: Date | null;
  /** When a request of it last left for the provider's refund API: set, it may have been made. */
  sent_at: Date | null;
  last_answer: string | null;
  refunded_by: string | null;
  provider_reference: string | null;
  created_at: Date;
  refunded_at: Date | null;
}

const columns =
  'id, idx, attempt_id, environment, provider, amount, reason, refund_record_id, state, tries, next_try_at, sent_at, last_answer, refunded_by, provider_reference, created_at, refunded_at';

export async function insertProviderRefund(
  db: Queryable,
  r: Pick<ProviderRefund, 'idx' | 'attempt_id' | 'environment' | 'provider' | 'amount' | 'reason' | 'refund_record_id' | 'created_at'> & { nextTryAt: Date | null },
): Promise<ProviderRefund> {
  const [row] = await db.query<ProviderRefund>(
    `INSERT INTO provider_refunds (idx, attempt_id, environment, provider, amount, reason, refund_record_id, state, next_try_at, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, 'Queued', $8, $9) RETURNING ${columns}`,
    [r.idx, r.attempt_id, r.environment, r.provider, r.amount, r.reason, r.refund_record_id, r.nextTryAt, r.created_at],
  );
  return row;
}

export async function findProviderRefund(db: Queryable, idx: string): Promise<ProviderRefund | undefined> {
  const [row] = await db.query<ProviderRefund>(`SELECT ${columns} FROM provider_refunds WHERE idx = $1`, [idx]);
  return row;
}

/** Marks a queued refund done; the row, or undefined when it was not Queued (done by someone else). */
export async function markProviderRefunded(db: Queryable, id: number, done: { by: string; reference?: string; answer: string; at: Date }): Promise<ProviderRefund | undefined> {
  const [row] = await db.query<ProviderRefund>(
    `UPDATE provider_refunds SET state = 'Refunded', refunded_at = $2, refunded_by = $3, provider_reference = $4, last_answer = $5, next_try_at = NULL, lease_until = NULL
      WHERE id = $1 AND state = 'Queued' RETURNING ${columns}`,
    [id, done.at, done.by, done.reference ?? null, done.answer.slice(0, 500)],
  );
  return row;
}

/** Leases queued refunds due for their provider's refund API (next_try_at set; operators' ones have none). */
export async function leaseDueRefunds(db: Queryable, now: Date, leaseUntil: Date, limit: number): Promise<ProviderRefund[]> {
  return db.query<ProviderRefund>(
    `WITH due AS (
       SELECT id FROM provider_refunds WHERE state = 'Queued' AND next_try_at <= $1 AND (lease_until IS NULL OR lease_until <= $1)
        ORDER BY next_try_at LIMIT $3 FOR UPDATE SKIP LOCKED
     )
     UPDATE provider_refunds r SET lease_until = $2 FROM due WHERE r.id = due.id RETURNING ${columns.split(', ').map((c) => `r.${c}`).join(', ')}`,
    [now, leaseUntil, limit],
  );
}

/**
 * Writes that a request of the refund leaves now, before it leaves, if nobody else has since it was
 * read (`before`: its sent_at then): false when another instance took it meanwhile (its lease ran out).
 */
export async function markRefundSent(db: Queryable, id: number, before: Date | null, at: Date): Promise<boolean> {
  const rows = await db.query(`UPDATE provider_refunds SET sent_at = $2 WHERE id = $1 AND state = 'Queued' AND sent_at IS NOT DISTINCT FROM $3 RETURNING id`, [id, at, before]);
  return rows.length > 0;
}

/** Not tried now, and not counted: asked about again at `at` (a request of it may still be on its way). */
export async function deferRefund(db: Queryable, id: number, answer: string, at: Date): Promise<void> {
  await db.query('UPDATE provider_refunds SET last_answer = $2, next_try_at = $3, lease_until = NULL WHERE id = $1', [id, answer.slice(0, 500), at]);
}

/** A try that did not refund: counted; `nextTryAt` null hands it to the operators' queue. */
export async function recordRefundTry(db: Queryable, id: number, answer: string, nextTryAt: Date | null): Promise<void> {
  await db.query('UPDATE provider_refunds SET tries = tries + 1, last_answer = $2, next_try_at = $3, lease_until = NULL WHERE id = $1', [id, answer.slice(0, 500), nextTryAt]);
}

export interface QueuedRefund extends ProviderRefund {
  pidx: string;
  purchase_order_id: string;
  merchant_name: string;
  provider_transaction_id: string | null;
}

/** The operators' queue: refunds waiting to be made at a provider by hand, oldest first. */
export async function listOperatorRefunds(db: Queryable, limit: number): Promise<QueuedRefund[]> {
  return db.query<QueuedRefund>(
    `SELECT ${columns.split(', ').map((c) => `r.${c}`).join(', ')}, a.pidx, p.purchase_order_id, m.name AS merchant_name, a.provider_transaction_id
       FROM provider_refunds r JOIN provider_attempts a ON a.id = r.attempt_id JOIN payments p ON p.pidx = a.pidx JOIN merchants m ON m.id = p.merchant_id
      WHERE r.state = 'Queued' AND r.next_try_at IS NULL ORDER BY r.id LIMIT $1`,
    [limit],
  );
}
