// The SQL of payouts as NPI moves them (migration 120): each one's ids, written before anything is
// sent, its status as NPI last told it, and the lease an instance holds while it posts or asks.
import type { Queryable } from '../db/db.js';
import { qualified } from '../db/statement.js';
import type { Environment } from '../environment.js';
import type { NpiRail } from '../payout-rails/npi/transformers.js';

export type TransferStatus = 'unsent' | 'sent' | 'paid' | 'failed';

export interface NpiTransferRow {
  payout_id: number;
  environment: Environment;
  rail: NpiRail;
  batch_id: string;
  instruction_id: string;
  end_to_end_id: string;
  amount: number;
  creditor_agent: string;
  creditor_branch: string;
  creditor_account: string;
  creditor_name: string;
  status: TransferStatus;
  detail: string | null;
  nchl_reference: string | null;
  posts: number;
  posted_at: Date | null;
  checks: number;
  next_at: Date;
  needs_operator: boolean;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = `payout_id, environment, rail, batch_id, instruction_id, end_to_end_id, amount, creditor_agent, creditor_branch,
  creditor_account, creditor_name, status, detail, nchl_reference, posts, posted_at, checks, next_at, needs_operator, created_at, updated_at`;

export type NewTransfer = Pick<
  NpiTransferRow,
  'payout_id' | 'environment' | 'rail' | 'batch_id' | 'instruction_id' | 'end_to_end_id' | 'amount' | 'creditor_agent' | 'creditor_branch' | 'creditor_account' | 'creditor_name'
>;

export async function insertTransfer(tx: Queryable, t: NewTransfer, now: Date): Promise<void> {
  await tx.query(
    `INSERT INTO npi_transfers (payout_id, environment, rail, batch_id, instruction_id, end_to_end_id, amount, creditor_agent, creditor_branch,
       creditor_account, creditor_name, status, next_at, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 'unsent', $12, $12, $12)`,
    [t.payout_id, t.environment, t.rail, t.batch_id, t.instruction_id, t.end_to_end_id, t.amount, t.creditor_agent, t.creditor_branch, t.creditor_account, t.creditor_name, now],
  );
}

/** The batches of `environment` with transfers in `status` due by `now` and leased by nobody, oldest first. */
export async function dueBatches(db: Queryable, environment: Environment, status: 'unsent' | 'sent', now: Date, limit: number): Promise<string[]> {
  const rows = await db.query<{ batch_id: string }>(
    `SELECT batch_id FROM npi_transfers
      WHERE environment = $1 AND status = $2 AND next_at <= $3 AND (lease_until IS NULL OR lease_until <= $3)
      GROUP BY batch_id ORDER BY min(next_at) LIMIT $4`,
    [environment, status, now, limit],
  );
  return rows.map((r) => r.batch_id);
}

/**
 * Takes the batch's transfers in `status` for `leaseMs` (no other instance posts or asks meanwhile):
 * the transfers taken, none when another holds them or they moved on.
 */
export async function leaseBatch(db: Queryable, batchId: string, status: 'unsent' | 'sent', now: Date, leaseMs: number): Promise<NpiTransferRow[]> {
  return db.query<NpiTransferRow>(
    `UPDATE npi_transfers SET lease_until = $4
      WHERE batch_id = $1 AND status = $2 AND next_at <= $3 AND (lease_until IS NULL OR lease_until <= $3)
        AND NOT EXISTS (SELECT FROM npi_transfers o WHERE o.batch_id = $1 AND o.lease_until > $3)
      RETURNING ${COLUMNS}`,
    [batchId, status, now, new Date(now.getTime() + leaseMs)],
  );
}

/** What a transfer becomes when NPI's word is not final (or no word came): when to look next, and why. */
export interface TransferNote {
  status: 'unsent' | 'sent';
  detail: string;
  nextAt: Date;
  posted?: boolean;
  checked?: boolean;
  needsOperator?: boolean;
}

/** Notes the transfer's state and frees its lease; false when it had meanwhile been decided. */
export async function noteTransfer(db: Queryable, payoutId: number, note: TransferNote, now: Date): Promise<boolean> {
  const rows = await db.query(
    `UPDATE npi_transfers SET status = $2, detail = $3, next_at = $4, lease_until = NULL, updated_at = $5,
            posts = posts + $6, posted_at = CASE WHEN $6 > 0 THEN $5 ELSE posted_at END, checks = checks + $7, needs_operator = needs_operator OR $8
      WHERE payout_id = $1 AND status IN ('unsent', 'sent') RETURNING payout_id`,
    [payoutId, note.status, note.detail, note.nextAt, now, note.posted ? 1 : 0, note.checked ? 1 : 0, note.needsOperator ?? false],
  );
  return rows.length > 0;
}

/** NPI's final word: paid or failed, once (`said`: by a posting's answer or a report, counted as a post or an ask; or by an operator); false when the transfer was already decided. */
export async function decideTransfer(
  tx: Queryable,
  payoutId: number,
  outcome: { status: 'paid' | 'failed'; detail: string; reference: string | null; said: 'posting' | 'report' | 'operator' },
  now: Date,
): Promise<boolean> {
  const rows = await tx.query(
    `UPDATE npi_transfers SET status = $2, detail = $3, nchl_reference = coalesce($4, nchl_reference), lease_until = NULL, updated_at = $5,
            checks = checks + $6, posts = posts + $7, posted_at = CASE WHEN $7 > 0 THEN $5 ELSE posted_at END
      WHERE payout_id = $1 AND status IN ('unsent', 'sent') RETURNING payout_id`,
    [payoutId, outcome.status, outcome.detail, outcome.reference, now, outcome.said === 'report' ? 1 : 0, outcome.said === 'posting' ? 1 : 0],
  );
  return rows.length > 0;
}

/** The transfer of a payout, if NPI moves it. */
export async function findTransfer(db: Queryable, payoutId: number): Promise<NpiTransferRow | undefined> {
  const [row] = await db.query<NpiTransferRow>(`SELECT ${COLUMNS} FROM npi_transfers WHERE payout_id = $1`, [payoutId]);
  return row;
}

/** Transfers of `environment` NPI has not decided that need an operator, oldest first. */
export async function listUndecidedTransfers(db: Queryable, environment: Environment): Promise<(NpiTransferRow & { idx: string })[]> {
  return db.query(
    `SELECT ${qualified('t', COLUMNS)}, p.idx FROM npi_transfers t JOIN payouts p ON p.id = t.payout_id
      WHERE t.environment = $1 AND t.status IN ('unsent', 'sent') AND t.needs_operator ORDER BY t.created_at, t.payout_id`,
    [environment],
  );
}

/** When the last batch of NCHL-IPS was formed in `environment`. */
export async function lastBatchAt(db: Queryable, environment: Environment): Promise<Date | null> {
  const [row] = await db.query<{ at: Date | null }>(`SELECT max(created_at) AS at FROM npi_transfers WHERE environment = $1 AND rail = 'ips'`, [environment]);
  return row.at;
}

/** Transfers of `environment` created within [from, to): for reconciliation. */
export async function transfersBetween(db: Queryable, environment: Environment, from: Date, to: Date): Promise<(NpiTransferRow & { idx: string; payout_state: string })[]> {
  return db.query(
    `SELECT ${qualified('t', COLUMNS)}, p.idx, p.state AS payout_state
       FROM npi_transfers t JOIN payouts p ON p.id = t.payout_id
      WHERE t.environment = $1 AND t.created_at >= $2 AND t.created_at < $3 ORDER BY t.created_at, t.payout_id`,
    [environment, from, to],
  );
}

/** Transfers of `environment` by their instruction ids, with their payout's idx and state. */
export async function transfersByInstruction(db: Queryable, environment: Environment, instructionIds: string[]): Promise<(NpiTransferRow & { idx: string; payout_state: string })[]> {
  if (instructionIds.length === 0) return [];
  return db.query(
    `SELECT ${qualified('t', COLUMNS)}, p.idx, p.state AS payout_state FROM npi_transfers t JOIN payouts p ON p.id = t.payout_id
      WHERE t.environment = $1 AND t.instruction_id = ANY($2::text[])`,
    [environment, instructionIds],
  );
}
