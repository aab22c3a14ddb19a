// The SQL of payout statements: the sums of the records a payout settles, and those records a page
// at a time (keyset on the record id), so a payout of a hundred thousand records is summed
// by the database and streamed to a CSV without holding them all.
import type { Queryable } from '../db/db.js';
import type { SettledRecord } from './payout.js';
import { SANDBOX_COVERED_SQL, SETTLED_RECORD_COLUMNS } from './payout-store.js';
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
            coalesce(sum(t.amount) FILTER (WHERE t.type = 'Refund'), 0) AS refunds,
            coalesce(sum(${SANDBOX_COVERED_SQL}) FILTER (WHERE t.type = 'Refund'), 0) AS sandbox_covered
       FROM payout_records r JOIN transactions t ON t.id = r.record_id
      WHERE r.payout_id = $1`,
    [payoutId],
  );
  return row;
}

/**
 * Up to `limit` records of the statement after record `after` (the last of the page before), in the
 * order they were recorded: by record id, which the primary key of payout_records gives without a
 * sort, so each page costs the same however long the statement.
 */
export async function statementRecords(db: Queryable, payoutId: number, page: { after?: number; limit: number }): Promise<SettledRecord[]> {
  return db.query<SettledRecord>(
    `SELECT ${SETTLED_RECORD_COLUMNS}
       FROM payout_records r JOIN transactions t ON t.id = r.record_id
      WHERE r.payout_id = $1 AND r.record_id > $2
      ORDER BY r.record_id LIMIT $3`,
    [payoutId, page.after ?? 0, page.limit],
  );
}
