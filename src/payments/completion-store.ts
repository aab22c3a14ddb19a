// The writes of the hosted page's last step: a right OTP pays the payment, or,
// for the sandbox's pending wallet, holds it. Confirms that arrive while earlier ones are being
// written go to the store together (`batcher`), as one statement for all of them: per payment the
// attempt claimed, the status moved, the event and the webhook delivery queued, the payer's wallet
// debited, the journal with its postings and the transaction record written. No BEGIN, no COMMIT,
// no connection held while Node runs; the statement commits everything or nothing.
import { batchedPerStore } from '../db/batcher.js';
import { PgCode, violates, type Queryable } from '../db/db.js';
import type { Posting } from '../ledger/ledger-store.js';
import type { RecordState } from '../transactions/transaction-record.js';
import { outboxInsert } from '../webhooks/outbox.js';
import type { Wallet } from '../wallets/wallet.js';
import type { Payment } from './payment.js';
import { paymentColumns } from './payment-store.js';
import { eventTypeOfMove, moveRules, type PayingMove } from './state-machine.js';

export interface Completion {
  pidx: string;
  /** The attempt whose OTP was right; claimed (ended) by the statement, so it pays once. */
  token: string;
  move: PayingMove['name'];
  transactionId: string;
  /** The payer's wallet; one frozen by the time the statement runs does not pay (sandbox wallets are never frozen). */
  wallet: Pick<Wallet, 'idx' | 'mobile' | 'name' | 'sandbox'>;
  at: Date;
  /** The payment journal's balanced postings; a hold moves no money and has none. */
  postings: Posting[];
}

export class OrderAlreadyPaidError extends Error {
  constructor() {
    super('another payment of this order already holds or took the money');
  }
}

/** The payment's link has already been paid the most times it may be (payment_links_max_payments). */
export class LinkUsedUpError extends Error {
  constructor() {
    super('the payment link has taken all the payments it allows');
  }
}

const recordStateOf: Record<Completion['move'], RecordState> = { pay: 'Completed', hold: 'Confirmed' };

/**
 * Each row of `input` is one completion (`ord` is its place in the batch); each row of `posting` one
 * of its journal's postings. A payment moves only if its attempt was claimed, it is still payable and
 * its wallet is not frozen (the wallet row is share-locked: a freeze either waits for this statement or,
 * committed first, is seen, as the lock re-reads the row). Everything after the move is written from `moved`, so only for the payments that moved: if the
 * same payment is in the batch twice, it moves (and its wallet pays) once. Wallet rows are locked in
 * account order, so two batches debiting the same wallets never wait on each other in a cycle. A
 * wallet that cannot pay fails the whole statement through the `CHECK (balance >= 0)` on its row;
 * `batcher` then writes the batch one completion at a time, so that only that payer is refused. In
 * the same way a payment of a payment link counts itself on the link's row (`link_taken`, under the
 * row's lock, re-read when another statement moved it first), and one past the link's max_payments
 * fails through `payment_links_max_payments`: nothing of it is written and its payer is not charged.
 */
const sql = `WITH input AS (
  SELECT * FROM unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[], $12::text[], $17::boolean[])
    AS i (ord, pidx, token, move, status, webhook_type, record_state, transaction_id, at, payer_idx, payer_mobile, payer_name, payer_sandbox)
),
posting AS (
  SELECT * FROM unnest($13::int[], $14::bigint[], $15::bigint[], $16::boolean[]) AS p (ord, account_id, amount, wallet)
),
unfrozen AS (
  SELECT w.idx FROM wallets w JOIN input i ON w.idx = i.payer_idx WHERE NOT i.payer_sandbox AND w.frozen_at IS NULL FOR SHARE OF w
),
claimed AS (
  UPDATE payment_attempts a SET ended = true FROM input i WHERE a.token = i.token AND NOT a.ended RETURNING a.token
),
moved AS (
  UPDATE payments p SET status = i.status, transaction_id = i.transaction_id, payer_mobile = i.payer_mobile, updated_at = i.at::timestamptz
    FROM input i JOIN claimed c ON c.token = i.token
   WHERE p.pidx = i.pidx AND p.status = 'Initiated' AND p.expires_at > i.at::timestamptz
     AND (i.payer_sandbox OR i.payer_idx IN (SELECT idx FROM unfrozen))
  RETURNING p.*, i.ord, i.move, i.webhook_type, i.record_state, i.payer_idx, i.payer_name
),
event AS (
  INSERT INTO payment_events (pidx, occurred_at, event, detail) SELECT pidx, updated_at, move, '{}' FROM moved
),
outbox AS (${outboxInsert({ type: 'moved.webhook_type', now: 'moved.updated_at', detail: `'{}'` })}),
debit AS (
  SELECT p.account_id, sum(p.amount) AS amount FROM moved JOIN posting p ON p.ord = moved.ord WHERE p.wallet GROUP BY p.account_id
),
wallet_moves AS (
  UPDATE ledger_accounts a SET balance = a.balance + debit.amount
    FROM debit, (SELECT id FROM ledger_accounts WHERE id IN (SELECT account_id FROM debit) ORDER BY id FOR UPDATE) locked
   WHERE a.id = debit.account_id AND a.id = locked.id AND a.kind = 'wallet'
),
link_taken AS (
  UPDATE payment_links l SET payments_taken = l.payments_taken + n.taken
    FROM (SELECT payment_link, count(*)::int AS taken FROM moved WHERE payment_link IS NOT NULL GROUP BY payment_link) n
   WHERE l.idx = n.payment_link
),
journal AS (
  INSERT INTO journals (environment, kind, pidx, created_at)
  SELECT environment, 'payment', pidx, updated_at FROM moved WHERE EXISTS (SELECT FROM posting p WHERE p.ord = moved.ord)
  RETURNING id, pidx
),
posted AS (
  INSERT INTO postings (journal_id, account_id, amount)
  SELECT journal.id, p.account_id, p.amount FROM journal JOIN moved ON moved.pidx = journal.pidx JOIN posting p ON p.ord = moved.ord
),
record AS (
  INSERT INTO transactions (idx, merchant_id, environment, type, state, pidx, purchase_order_id, amount, fee_amount,
    payer_idx, payer_mobile, payer_name, created_at, payment_link)
  SELECT transaction_id, merchant_id, environment, 'Wallet payment', record_state, pidx, purchase_order_id, amount, fee,
         payer_idx, payer_mobile, payer_name, updated_at, payment_link FROM moved
)
SELECT ord, ${paymentColumns} FROM moved`;

/** The moved payment of each completion, or null where its attempt had ended or the payment could no longer move. */
async function writeCompletions(db: Queryable, batch: Completion[]): Promise<(Payment | null)[]> {
  const postings = batch.flatMap((c, ord) => c.postings.map((p) => ({ ord, ...p })));
  try {
    const rows = await db.query<Payment & { ord: number }>(sql, [
      batch.map((_, ord) => ord),
      batch.map((c) => c.pidx),
      batch.map((c) => c.token),
      batch.map((c) => c.move),
      batch.map((c) => moveRules[c.move].to[0]),
      batch.map((c) => eventTypeOfMove[c.move]),
      batch.map((c) => recordStateOf[c.move]),
      batch.map((c) => c.transactionId),
      batch.map((c) => c.at.toISOString()),
      batch.map((c) => c.wallet.idx),
      batch.map((c) => c.wallet.mobile),
      batch.map((c) => c.wallet.name),
      postings.map((p) => p.ord),
      postings.map((p) => p.accountId),
      postings.map((p) => p.amount),
      postings.map((p) => p.wallet === true),
      batch.map((c) => c.wallet.sandbox),
    ]);
    const moved = new Map(rows.map(({ ord, ...payment }) => [ord, payment as Payment]));
    return batch.map((_, ord) => moved.get(ord) ?? null);
  } catch (error) {
    if (violates(error, PgCode.uniqueViolation, 'payments_one_paid_per_order')) {
      throw new OrderAlreadyPaidError();
    }
    if (violates(error, PgCode.checkViolation, 'payment_links_max_payments')) {
      throw new LinkUsedUpError();
    }
    throw error;
  }
}

/**
 * Writes one completion, together with whatever other completions are waiting; resolves with the
 * moved payment, or null. Rejects with `OrderAlreadyPaidError`, `LinkUsedUpError`, or the store's
 * error when the payer's wallet is short of the amount (see `isShortWallet`).
 */
export const complete = batchedPerStore(writeCompletions);
