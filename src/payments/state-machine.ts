// The payment lifecycle of contract section 4: the allowed moves, and the one function that makes
// them. Each move is a single conditional UPDATE, so when requests race exactly one wins.
import type { Queryable } from '../db/db.js';
import { pgCode, PgCode } from '../db/db.js';
import { gated, Statement } from '../db/statement.js';
import type { Payment } from './payment.js';
import { paymentColumns } from './payment-store.js';
import type { PaymentStatus } from './payment-status.js';
import { eventTypeOfMove, outboxInsert } from '../webhooks/outbox.js';

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
}

/** The move's SET and WHERE, its parameters added to `s`; `now` is the placeholder of the time. */
function update(move: Move, s: Statement, now: string): Update {
  switch (move.name) {
    case 'pay':
    case 'hold':
      return {
        set: `status = '${move.name === 'pay' ? 'Completed' : 'Pending'}', transaction_id = ${s.param(move.transactionId)}, payer_mobile = ${s.param(move.payerMobile)}`,
        where: `status = 'Initiated' AND expires_at > ${now}`,
      };
    case 'cancel':
      return { set: `status = 'User canceled'`, where: `status = 'Initiated' AND expires_at > ${now}` };
    case 'expire':
      return { set: `status = 'Expired'`, where: `status = 'Initiated' AND expires_at <= ${now}` };
    case 'resolve_completed':
      return { set: `status = 'Completed'`, where: `status = 'Pending'` };
    case 'resolve_canceled':
      return { set: `status = 'User canceled'`, where: `status = 'Pending'` };
    case 'refund': {
      const amount = s.param(move.amount);
      return {
        set: `refunded_amount = refunded_amount + ${amount},
              status = CASE WHEN refunded_amount + ${amount} = amount THEN 'Refunded' ELSE 'Partially refunded' END`,
        where: `status IN ('Completed', 'Partially refunded') AND ${amount}::bigint > 0 AND refunded_amount + ${amount} <= amount`,
      };
    }
  }
}

/** What else one statement does with a move, atomically. */
export interface MoveParts {
  /** Runs first and adds a CTE; the move is made only when it returned a row. Returns its name. */
  requires?: (s: Statement) => string;
  /** Written only with the move; each reads the moved payment from the CTE named by its `moved`. */
  with?: ((s: Statement, moved: string) => void)[];
}

/**
 * Makes `move` on payment `pidx` if its current status allows it, and records the event.
 * Returns the updated payment, or null when the payment was not in a state that allows the move
 * (another request won the race, or it expired) or `parts.requires` returned no row.
 */
export async function transition(db: Queryable, pidx: string, move: Move, now: Date, parts: MoveParts = {}): Promise<Payment | null> {
  const s = new Statement();
  const gate = parts.requires?.(s);
  const at = s.param(now);
  const { set, where } = update(move, s, at);
  const detail = s.param(JSON.stringify(move.name === 'refund' ? { amount: move.amount } : {}));
  s.with('moved', `UPDATE payments SET ${set}, updated_at = ${at} WHERE pidx = ${s.param(pidx)} AND ${where} AND ${gated(gate)} RETURNING *`);
  s.with('event', `INSERT INTO payment_events (pidx, occurred_at, event, detail) SELECT pidx, ${at}, ${s.param(move.name)}, ${detail} FROM moved`);
  s.with('outbox', outboxInsert({ type: s.param(eventTypeOfMove[move.name]), now: at, detail }));
  for (const part of parts.with ?? []) part(s, 'moved');
  try {
    const rows = await db.query<Payment>(s.text(`SELECT ${paymentColumns} FROM moved`), s.params);
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
     ), outbox AS (${outboxInsert({ type: `'payment.expired'`, now: '$1', detail: `'{}'` })})
     SELECT pidx FROM moved`,
    [now, limit],
  );
  return rows.map((r) => r.pidx);
}
