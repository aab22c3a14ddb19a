// The payment lifecycle of contract section 4: the allowed moves, and the one function that makes
// them. Each move is a single conditional UPDATE, so when requests race exactly one wins.
import type { Queryable } from '../db/db.js';
import { pgCode, PgCode } from '../db/db.js';
import type { Payment } from './payment.js';
import { paymentColumns } from './payment-store.js';
import type { PaymentStatus } from './payment-status.js';
import { eventTypeOfMove, outboxCte } from '../webhooks/outbox.js';

export type Move =
  | { name: 'pay'; transactionId: string; payerMobile: string }
  | { name: 'hold'; transactionId: string; payerMobile: string }
  | { name: 'cancel' }
  | { name: 'expire' }
  | { name: 'resolve_completed' }
  | { name: 'resolve_canceled' }
  | { name: 'refund'; amount: number };

export type MoveName = Move['name'];

export const moveRules: Record<MoveName, { from: readonly PaymentStatus[]; to: readonly PaymentStatus[] }> = {
  pay: { from: ['Initiated'], to: ['Completed'] },
  hold: { from: ['Initiated'], to: ['Pending'] },
  cancel: { from: ['Initiated'], to: ['User canceled'] },
  expire: { from: ['Initiated'], to: ['Expired'] },
  resolve_completed: { from: ['Pending'], to: ['Completed'] },
  resolve_canceled: { from: ['Pending'], to: ['User canceled'] },
  refund: { from: ['Completed', 'Partially refunded'], to: ['Partially refunded', 'Refunded'] },
};

/** Whether a payment in `status` may make `move`; the UPDATE checks it again, atomically. */
export function canMove(status: PaymentStatus, move: MoveName): boolean {
  return moveRules[move].from.includes(status);
}

export class OrderAlreadyPaidError extends Error {
  constructor() {
    super('another payment of this order already holds or took the money');
  }
}

interface Update {
  set: string;
  where: string;
  params: unknown[];
}

// $1 pidx, $2 now; each move adds its own parameters from $3.
function update(move: Move): Update {
  switch (move.name) {
    case 'pay':
    case 'hold':
      return {
        set: `status = '${move.name === 'pay' ? 'Completed' : 'Pending'}', transaction_id = $3, payer_mobile = $4`,
        where: `status = 'Initiated' AND expires_at > $2`,
        params: [move.transactionId, move.payerMobile],
      };
    case 'cancel':
      return { set: `status = 'User canceled'`, where: `status = 'Initiated' AND expires_at > $2`, params: [] };
    case 'expire':
      return { set: `status = 'Expired'`, where: `status = 'Initiated' AND expires_at <= $2`, params: [] };
    case 'resolve_completed':
      return { set: `status = 'Completed'`, where: `status = 'Pending'`, params: [] };
    case 'resolve_canceled':
      return { set: `status = 'User canceled'`, where: `status = 'Pending'`, params: [] };
    case 'refund':
      return {
        set: `refunded_amount = refunded_amount + $3,
              status = CASE WHEN refunded_amount + $3 = amount THEN 'Refunded' ELSE 'Partially refunded' END`,
        where: `status IN ('Completed', 'Partially refunded') AND $3::bigint > 0 AND refunded_amount + $3 <= amount`,
        params: [move.amount],
      };
  }
}

/**
 * Makes `move` on payment `pidx` if its current status allows it, and records the event.
 * Returns the updated payment, or null when the payment was not in a state that allows the move
 * (another request won the race, or it expired).
 */
export async function transition(db: Queryable, pidx: string, move: Move, now: Date): Promise<Payment | null> {
  const { set, where, params } = update(move);
  const detail = move.name === 'refund' ? { amount: move.amount } : {};
  const [nameParam, detailParam, typeParam] = [params.length + 3, params.length + 4, params.length + 5].map((n) => `$${n}`);
  try {
    const rows = await db.query<Payment>(
      `WITH moved AS (
         UPDATE payments SET ${set}, updated_at = $2 WHERE pidx = $1 AND ${where} RETURNING *
       ), event AS (
         INSERT INTO payment_events (pidx, occurred_at, event, detail)
         SELECT pidx, $2, ${nameParam}, ${detailParam} FROM moved
       ), ${outboxCte({ type: typeParam, now: '$2', detail: detailParam })}
       SELECT ${paymentColumns} FROM moved`,
      [pidx, now, ...params, move.name, JSON.stringify(detail), eventTypeOfMove[move.name]],
    );
    return rows[0] ?? null;
  } catch (error) {
    if (pgCode(error) === PgCode.uniqueViolation && String((error as Error).message).includes('payments_one_paid_per_order')) {
      throw new OrderAlreadyPaidError();
    }
    throw error;
  }
}

/**
 * The `expire` move for many payments at once (the background sweep). Rows another instance is
 * already sweeping are skipped, and the status is re-checked under the row lock, so each payment
 * is expired once and a payment paid meanwhile is left alone.
 */
export async function expireOverdue(db: Queryable, now: Date, limit: number): Promise<string[]> {
  const rows = await db.query<{ pidx: string }>(
    `WITH due AS (
       SELECT pidx FROM payments WHERE status = 'Initiated' AND expires_at <= $1
        ORDER BY expires_at LIMIT $2 FOR UPDATE SKIP LOCKED
     ), moved AS (
       UPDATE payments p SET status = 'Expired', updated_at = $1
         FROM due WHERE p.pidx = due.pidx AND p.status = 'Initiated' AND p.expires_at <= $1
       RETURNING p.*
     ), event AS (
       INSERT INTO payment_events (pidx, occurred_at, event, detail) SELECT pidx, $1, 'expire', '{}' FROM moved
     ), ${outboxCte({ type: `'payment.expired'`, now: '$1', detail: `'{}'` })}
     SELECT pidx FROM moved`,
    [now, limit],
  );
  return rows.map((r) => r.pidx);
}
