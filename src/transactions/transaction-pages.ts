// Every record of the list (same filters, same order: newest first, then by id), a page at a time for
// exports. Each page starts strictly after the last record of the one before, on the list's index,
// so page 5,000 costs what page 1 does (no OFFSET) and no connection is held between pages. A
// record's time and id never change, so every record there at the start is read exactly once;
// records written meanwhile are newer than the first page and stay out.
import type { AppContext } from '../context.js';
import { lagging } from '../db/db.js';
import { RECORD_COLUMNS, whereClause, withCondition, type TransactionOwner } from './list-transactions.js';
import type { ListFilters } from './list-query.js';
import { transactionRecord, type TransactionRecord, type TransactionRow } from './transaction-record.js';

export async function* transactionPages(
  ctx: AppContext,
  owner: TransactionOwner,
  options: { filters: ListFilters; pageRows: number },
): AsyncGenerator<TransactionRecord[]> {
  const timeZone = ctx.config.timeZone;
  const where = whereClause(owner, options.filters, timeZone);
  let lastId: number | undefined;
  for (;;) {
    // The last record's own created_at, read in SQL: a JS Date would lose the microseconds.
    const page =
      lastId === undefined ? where : withCondition(where, (p) => `(t.created_at, t.id) < ((SELECT created_at FROM transactions WHERE id = ${p}), ${p})`, lastId);
    const rows = await lagging(ctx.db).query<TransactionRow & { id: number }>(
      `SELECT t.id, ${RECORD_COLUMNS}
         FROM transactions t JOIN merchants m ON m.id = t.merchant_id
        WHERE ${page.sql}
        ORDER BY t.created_at DESC, t.id DESC
        LIMIT ${options.pageRows}`,
      page.params,
    );
    if (rows.length > 0) yield rows.map((row) => transactionRecord(row, timeZone));
    if (rows.length < options.pageRows) return;
    lastId = rows[rows.length - 1].id;
  }
}
