// The payment lifecycle: the allowed moves, and the function that makes them (the wallet's paying
// moves, with their money, are made by completion-store; a provider's, by its completion's statement
// through withMove). Each move is a single
// conditional UPDATE, so when requests race exactly one wins.
import type { Queryable } from '../db/db.js';
import { Statement } from '../db/statement.js';
import type { Payment } from './payment.js';
import { paymentColumns } from './payment-store.js';
import type { PaymentStatus } from './payment-status.js';
import { outboxInsert, type WebhookEventType } from '../webhooks/outbox.js';

export type Move =
  | { name: 'pay' }
  | { name: 'hold' }
  | { name: 'cancel' }
  | { name: 'expire' }
  | { name: 'resolve_completed' }
  | { name: 'resolve_canceled' }
  | { name: 'refund'; amount: number }
  // Through a provider: paid, or held while its answer is unknown, from the
  // hosted page; then decided by the provider's later answer.
  | { name: 'provider_pay'; transactionId: string }
  | { name: 'provider_hold'; transactionId: string }
  | { name: 'provider_confirm' }
  | { name: 'provider_fail' };

export type MoveName = Move['name'];
/** The moves of the hosted page's last step, which move money too (completion-store). */
export type PayingMove = Extract<Move, { name: 'pay' | 'hold' }>;

export const moveRules: Record<MoveName, { from: readonly PaymentStatus[]; to: readonly PaymentStatus[] }> = {
  pay: { from: ['Initiated'], to: ['Completed'] },
  hold: { from: ['Initiated'], to: ['Pending'] },
  cancel: { from: ['Initiated'], to: ['User canceled'] },
  expire: { from: ['Initiated'], to: ['Expired'] },
  resolve_completed: { from: ['Pending'], to: ['Completed'] },
  resolve_canceled: { from: ['Pending'], to: ['User canceled'] },
  refund: { from: ['Completed', 'Partially refunded'], to: ['Partially refunded', 'Refunded'] },
  provider_pay: { from: ['Initiated'], to: ['Completed'] },
  provider_hold: { from: ['Initiated'], to: ['Pending'] },
  provider_confirm: { from: ['Pending'], to: ['Completed'] },
  provider_fail: { from: ['Pending'], to: ['User canceled'] },
};

/** The webhook event each move queues (the outbox row is written by the move's own statement). */
export const eventTypeOfMove: Record<MoveName, WebhookEventType> = {
  pay: 'payment.completed',
  hold: 'payment.pending',
  cancel: 'payment.canceled',
  expire: 'payment.expired',
  resolve_completed: 'payment.completed',
  resolve_canceled: 'payment.canceled',
  refund: 'refund.completed',
  provider_pay: 'payment.completed',
  provider_hold: 'payment.pending',
  provider_confirm: 'payment.completed',
  provider_fail: 'payment.canceled',
};

/** Whether a payment in `status` may make `move`; the UPDATE checks it again, atomically. */
export function canMove(status: PaymentStatus, move: MoveName): boolean {
  return moveRules[move].from.includes(status);
}

interface Update {
  set: string;
  where: string;
}

/** The move's SET and WHERE, its parameters added to `s`; `now` is the placeholder of the time. */
function update(move: Exclude<Move, PayingMove>, s: Statement, now: string): Update {
  switch (move.name) {
    case 'cancel':
      return { set: `status = 'User canceled'`, where: `status = 'Initiated' AND expires_at > ${now}` };
    case 'expire':
      return { set: `status = 'Expired'`, where: `status = 'Initiated' AND expires_at <= ${now}` };
    case 'resolve_completed':
      return { set: `status = 'Completed'`, where: `status = 'Pending'` };
    case 'resolve_canceled':
    case 'provider_fail':
      return { set: `status = 'User canceled'`, where: `status = 'Pending'` };
    case 'provider_pay':
    case 'provider_hold':
      return {
        set: `status = '${move.name === 'provider_pay' ? 'Completed' : 'Pending'}', transaction_id = ${s.param(move.transactionId)}`,
        where: `status = 'Initiated' AND expires_at > ${now}`,
      };
    case 'provider_confirm':
      return { set: `status = 'Completed'`, where: `status = 'Pending'` };
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

/**
 * Adds `move` to `s` as its CTEs: `moved` (the payment, if its status allowed the move), its event,
 * its webhook delivery, and its payment link's place. `pidx` is the SQL naming the payment (a
 * parameter, or a subquery of an earlier CTE): a statement that moves a payment among other writes
 * (a provider payment's completion) makes the move as this machine does.
 */
export function withMove(s: Statement, pidx: string, move: Exclude<Move, PayingMove>, at: string): void {
  const { set, where } = update(move, s, at);
  const detail = s.param(JSON.stringify(move.name === 'refund' ? { amount: move.amount } : {}));
  s.with('moved', `UPDATE payments SET ${set}, updated_at = ${at} WHERE pidx = ${pidx} AND ${where} RETURNING *`);
  s.with('event', `INSERT INTO payment_events (pidx, occurred_at, event, detail) SELECT pidx, ${at}, ${s.param(move.name)}, ${detail} FROM moved`);
  s.with('outbox', outboxInsert({ type: s.param(eventTypeOfMove[move.name]), now: at, detail }));
  // A payment of a payment link takes one of its places when it is paid or held (completion-store for
  // a wallet's, here for a provider's; payment_links_max_payments refuses one too many), and a held
  // one canceled gives its place back.
  if (move.name === 'provider_pay' || move.name === 'provider_hold') s.with('link_taken', `UPDATE payment_links l SET payments_taken = l.payments_taken + 1 FROM moved WHERE l.idx = moved.payment_link`);
  if (move.name === 'resolve_canceled' || move.name === 'provider_fail') s.with('link_released', `UPDATE payment_links l SET payments_taken = l.payments_taken - 1 FROM moved WHERE l.idx = moved.payment_link`);
}

/**
 * Makes `move` on payment `pidx` if its current status allows it, and records the event.
 * Returns the updated payment, or null when the payment was not in a state that allows the move
 * (another request won the race, or it expired).
 */
export async function transition(db: Queryable, pidx: string, move: Exclude<Move, PayingMove>, now: Date): Promise<Payment | null> {
  const s = new Statement();
  const at = s.param(now);
  withMove(s, s.param(pidx), move, at);
  const rows = await db.query<Payment>(s.text(`SELECT ${paymentColumns} FROM moved`), s.params);
  return rows[0] ?? null;
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
