// The SQL of settlements: the debit lock, the balance figures, payouts, their moves and the records
// they settle. Nothing here decides what a move means (payout-state-machine.ts does).
import type { Queryable } from '../db/db.js';
import type { Environment } from '../environment.js';
import type { Payout, PayoutState, SettledRecord } from './payout.js';
import { payoutMoveRules, type PayoutMove } from './payout-state-machine.js';

export const PAYOUT_COLUMNS = `id, idx, merchant_id, environment, amount, state, bank_name, branch, account_name, account_number,
  bank_code, branch_code, bank_reference, failure_reason, waiting_reason, available_before, requested_by, requested_at, processing_at, paid_at, failed_at, updated_at`;

export interface Owner {
  merchantId: number;
  environment: Environment;
}

/**
 * Locks the merchant's settlement row until the transaction ends: every debit of its balance (a
 * payout, a refund) takes it first, so two debits never both spend the same money. Payments (credits)
 * never take it.
 */
export async function lockSettlementAccount(tx: Queryable, owner: Owner, now: Date): Promise<void> {
  await tx.query(
    `INSERT INTO settlement_accounts (merchant_id, environment, created_at) VALUES ($1, $2, $3)
     ON CONFLICT (merchant_id, environment) DO NOTHING`,
    [owner.merchantId, owner.environment, now],
  );
  await tx.query('SELECT FROM settlement_accounts WHERE merchant_id = $1 AND environment = $2 FOR UPDATE', [owner.merchantId, owner.environment]);
}

/**
 * One snapshot of the figures a balance is made of: the merchant account's balance (the sum of its
 * postings: merchant balances keep no running total, see migration 002), the net of its payments
 * recorded after `since`, and the amount of its payouts not yet paid.
 */
export async function balanceFigures(db: Queryable, owner: Owner, since: Date): Promise<{ total: number; recent: number; clearing: number }> {
  const [row] = await db.query<{ total: number; recent: number; clearing: number }>(
    `SELECT (SELECT coalesce(sum(p.amount), 0) FROM ledger_accounts a JOIN postings p ON p.account_id = a.id
              WHERE a.environment = $2 AND a.kind = 'merchant' AND a.owner_id = $1) AS total,
            (SELECT coalesce(sum(amount - fee_amount), 0) FROM transactions
              WHERE merchant_id = $1 AND environment = $2 AND created_at > $3 AND type <> 'Refund' AND state = 'Completed') AS recent,
            (SELECT coalesce(sum(amount), 0) FROM payouts
              WHERE merchant_id = $1 AND environment = $2 AND state IN ('Requested', 'Processing')) AS clearing`,
    [owner.merchantId, owner.environment, since],
  );
  return row;
}

export interface NewPayout {
  idx: string;
  amount: number;
  bank: { bankName: string; branch: string; accountName: string; accountNumber: string; bankCode?: string | null; branchCode?: string | null } | undefined;
  availableBefore: number;
  requestedBy: string;
  at: Date;
}

export async function insertPayout(tx: Queryable, owner: Owner, payout: NewPayout): Promise<Payout> {
  const [row] = await tx.query<Payout>(
    `INSERT INTO payouts (idx, merchant_id, environment, amount, state, bank_name, branch, account_name, account_number,
       available_before, requested_by, requested_at, updated_at, bank_code, branch_code)
     VALUES ($1, $2, $3, $4, 'Requested', $5, $6, $7, $8, $9, $10, $11, $11, $12, $13) RETURNING ${PAYOUT_COLUMNS}`,
    [
      payout.idx,
      owner.merchantId,
      owner.environment,
      payout.amount,
      payout.bank?.bankName ?? null,
      payout.bank?.branch ?? null,
      payout.bank?.accountName ?? null,
      payout.bank?.accountNumber ?? null,
      payout.availableBefore,
      payout.requestedBy,
      payout.at,
      payout.bank?.bankCode ?? null,
      payout.bank?.branchCode ?? null,
    ],
  );
  return row;
}

/**
 * Links to the payout the merchant's records it settles: every record no payout holds yet whose money
 * is available (payments recorded at or before `cutoff`; refunds whenever). Returns how many.
 */
export async function settleRecords(tx: Queryable, payout: Payout, cutoff: Date): Promise<number> {
  const rows = await tx.query<{ record_id: number }>(
    `INSERT INTO payout_records (payout_id, record_id)
     SELECT $1, t.id FROM transactions t
      WHERE t.merchant_id = $2 AND t.environment = $3 AND t.state = 'Completed'
        AND (t.type = 'Refund' OR t.created_at <= $4)
        AND NOT EXISTS (SELECT FROM payout_records r WHERE r.record_id = t.id AND NOT r.released)
     RETURNING record_id`,
    [payout.id, payout.merchant_id, payout.environment, cutoff],
  );
  return rows.length;
}

/**
 * Makes `move` on the payout if its state allows it: one conditional UPDATE, with in the same
 * statement the records released (a failure) and the webhook queued (paid, failed). Returns the moved
 * payout, or null when its state did not allow the move (someone else moved it first).
 */
export async function movePayout(tx: Queryable, payoutId: number, move: PayoutMove, now: Date): Promise<Payout | null> {
  const rule = payoutMoveRules[move.name];
  const detail = move.name === 'pay' ? move.reference : move.name === 'fail' ? move.reason : null;
  const rows = await tx.query<Payout>(
    `WITH moved AS (
       UPDATE payouts SET state = $4::text, updated_at = $3, waiting_reason = NULL,
              processing_at = CASE WHEN $4::text = 'Processing' THEN $3 ELSE processing_at END,
              paid_at = CASE WHEN $4::text = 'Paid' THEN $3 ELSE paid_at END,
              bank_reference = CASE WHEN $4::text = 'Paid' THEN $5::text ELSE bank_reference END,
              failed_at = CASE WHEN $4::text = 'Failed' THEN $3 ELSE failed_at END,
              failure_reason = CASE WHEN $4::text = 'Failed' THEN $5::text ELSE failure_reason END
        WHERE id = $1 AND state = ANY($2::text[]) RETURNING *
     ), released AS (
       UPDATE payout_records r SET released = true FROM moved WHERE r.payout_id = moved.id AND moved.state = 'Failed'
     ), outbox AS (
       INSERT INTO webhook_deliveries (event_id, merchant_id, environment, type, pidx, payload, url, next_attempt_at, created_at)
       SELECT 'evt_' || replace(gen_random_uuid()::text, '-', ''), moved.merchant_id, moved.environment, $6::text, NULL,
              jsonb_build_object('idx', moved.idx, 'state', moved.state, 'amount', moved.amount, 'bank_reference', moved.bank_reference,
                                 'failure_reason', moved.failure_reason, 'requested_at', moved.requested_at,
                                 'paid_at', moved.paid_at, 'failed_at', moved.failed_at),
              w.url, $3, $3
         FROM moved JOIN webhook_endpoints w ON w.merchant_id = moved.merchant_id AND w.environment = moved.environment
        WHERE $6::text IS NOT NULL
     )
     SELECT ${PAYOUT_COLUMNS} FROM moved`,
    [payoutId, rule.from, now, rule.to, detail, rule.webhook ?? null],
  );
  return rows[0] ?? null;
}

export async function findPayout(db: Queryable, idx: string): Promise<Payout | undefined> {
  if (idx.includes('\u0000')) return undefined;
  const [row] = await db.query<Payout>(`SELECT ${PAYOUT_COLUMNS} FROM payouts WHERE idx = $1`, [idx]);
  return row;
}

/** A payout of this merchant and environment only: another's is not found. */
export async function findOwnPayout(db: Queryable, owner: Owner, idx: string): Promise<Payout | undefined> {
  const payout = await findPayout(db, idx);
  return payout && payout.merchant_id === owner.merchantId && payout.environment === owner.environment ? payout : undefined;
}

/** A merchant's payouts, newest first (index payouts_merchant). */
export async function listPayouts(db: Queryable, owner: Owner, page: { limit: number; offset: number }): Promise<{ total: number; payouts: Payout[] }> {
  const [count] = await db.query<{ total: number }>('SELECT count(*)::bigint AS total FROM payouts WHERE merchant_id = $1 AND environment = $2', [owner.merchantId, owner.environment]);
  const payouts = await db.query<Payout>(
    `SELECT ${PAYOUT_COLUMNS} FROM payouts WHERE merchant_id = $1 AND environment = $2 ORDER BY id DESC LIMIT $3 OFFSET $4`,
    [owner.merchantId, owner.environment, page.limit, page.offset],
  );
  return { total: count.total, payouts };
}

/** What the sandbox covered of the refund record `t` (its cover's posting to the merchant; index journals_one_cover_per_refund). */
export const SANDBOX_COVERED_SQL = `coalesce((SELECT sum(cp.amount) FROM journals cj JOIN postings cp ON cp.journal_id = cj.id AND cp.amount > 0
  WHERE cj.refund_record_id = t.id AND cj.kind = 'sandbox_cover'), 0)`;

/** The columns of a SettledRecord, from `transactions t` and `payout_records r`. */
export const SETTLED_RECORD_COLUMNS = `t.id AS record_id, t.idx, t.type, t.pidx, t.purchase_order_id, t.amount, t.fee_amount, t.created_at, r.released,
  ${SANDBOX_COVERED_SQL} AS sandbox_covered`;

/** The records a payout settles (or settled, if it failed), oldest first. */
export async function payoutRecords(db: Queryable, payoutId: number): Promise<SettledRecord[]> {
  return db.query<SettledRecord>(
    `SELECT ${SETTLED_RECORD_COLUMNS}
       FROM payout_records r JOIN transactions t ON t.id = r.record_id
      WHERE r.payout_id = $1 ORDER BY t.created_at, t.id`,
    [payoutId],
  );
}

/** Payouts of `environment` in `state`, oldest first, skipping those another instance is moving. */
export async function lockPayoutsInState(tx: Queryable, environment: Environment, state: PayoutState, limit: number): Promise<Payout[]> {
  return tx.query<Payout>(
    `SELECT ${PAYOUT_COLUMNS} FROM payouts WHERE environment = $1 AND state = $2 ORDER BY id LIMIT $3 FOR UPDATE SKIP LOCKED`,
    [environment, state, limit],
  );
}
