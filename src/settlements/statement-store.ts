// The SQL of payout statements: the sums of the records a payout settles, and those records a page
// at a time (keyset on the statement's order), so a payout of a hundred thousand records is summed
// by the database and streamed to a CSV without holding them all.
import type { Queryable } from '../db/db.js';
import type { SettledRecord } from './payout.js';
import type { RecordSums } from './statement.js';

export interface StatementSums extends RecordSums {
  /** How many records. */
  records: number;
}

export async function statementSums(db: Queryable, payoutId: number): Promise<StatementSums> {
  const [row] = await db.query<StatementSums>(
    `SELECT count(*)::bigint AS records,
            coalesce(sum(t.amount) FILTER (WHERE t.type <> 'Refund'), 0) AS payments,
            coalesce(sum(t.fee_amount) FILTER (WHERE t.type <> 'Refund'), 0) AS fees,
            coalesce(sum(t.amount) FILTER (WHERE t.type = 'Refund'), 0) AS refunds
       FROM payout_records r JOIN transactions t ON t.id = r.record_id
      WHERE r.payout_id = $1`,
    [payoutId],
  );
  return row;
}

/** Up to `limit` records of the statement after `after` (the last of the page before), oldest first. */
export async function statementRecords(db: Queryable, payoutId: number, page: { after?: Pick<SettledRecord, 'created_at' | 'record_id'>; limit: number }): Promise<SettledRecord[]> {
  return db.query<SettledRecord>(
    `SELECT t.id AS record_id, t.idx, t.type, t.pidx, t.purchase_order_id, t.amount, t.fee_amount, t.created_at, r.released
       FROM payout_records r JOIN transactions t ON t.id = r.record_id
      WHERE r.payout_id = $1 AND ($2::timestamptz IS NULL OR (t.created_at, t.id) > ($2::timestamptz, $3::bigint))
      ORDER BY t.created_at, t.id LIMIT $4`,
    [payoutId, page.after?.created_at ?? null, page.after?.record_id ?? null, page.limit],
  );
}
