// The merchant transaction list (specification 2.5, contract section 3): one page of the records of
// one merchant's environment, newest first, with links to the neighbouring pages.
import type { AppContext } from '../context.js';
import { AppError } from '../http/errors.js';
import type { ApiCaller } from '../merchants/merchant.js';
import type { ListFilters } from './list-query.js';
import { transactionRecord, type TransactionRecord, type TransactionRow } from './transaction-record.js';

export interface TransactionPage {
  total_pages: number;
  total_records: number;
  next: string | null;
  previous: string | null;
  record_range: [number, number];
  current_page: number;
  records: TransactionRecord[];
}

/** Whose list: the API's caller, or the merchant logged in to the dashboard, in one environment. */
export type TransactionOwner = Pick<ApiCaller, 'merchant' | 'environment'>;

function whereClause(owner: TransactionOwner, filters: ListFilters, timeZone: string): { sql: string; params: unknown[] } {
  const params: unknown[] = [owner.merchant.id, owner.environment];
  const conditions = ['t.merchant_id = $1', 't.environment = $2'];
  const param = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  if (filters.status) conditions.push(`t.state = ${param(filters.status)}`);
  if (filters.purchase_order_id) conditions.push(`t.purchase_order_id = ${param(filters.purchase_order_id)}`);
  if (filters.search) {
    const search = param(filters.search);
    conditions.push(`(t.pidx = ${search} OR t.purchase_order_id = ${search})`);
  }
  // A bare date is a whole day in TIME_ZONE; a timestamp is that instant.
  const startOfDay = (day: string, plusDays: number) => `((${param(day)}::date + ${plusDays})::timestamp AT TIME ZONE ${param(timeZone)})`;
  if (filters.from) {
    conditions.push(filters.from.length === 10 ? `t.created_at >= ${startOfDay(filters.from, 0)}` : `t.created_at >= ${param(filters.from)}::timestamptz`);
  }
  if (filters.to) {
    conditions.push(filters.to.length === 10 ? `t.created_at < ${startOfDay(filters.to, 1)}` : `t.created_at <= ${param(filters.to)}::timestamptz`);
  }
  return { sql: conditions.join(' AND '), params };
}

export async function listTransactions(
  ctx: AppContext,
  owner: TransactionOwner,
  options: { filters: ListFilters; page: number; pageSize: number; pageLink: (page: number) => string },
): Promise<TransactionPage> {
  const { filters, page, pageSize } = options;
  const timeZone = ctx.config.timeZone;
  const where = whereClause(owner, filters, timeZone);
  const [{ count }] = await ctx.db.query<{ count: number }>(`SELECT count(*) AS count FROM transactions t WHERE ${where.sql}`, where.params);
  const totalPages = Math.max(1, Math.ceil(count / pageSize));
  if (page > totalPages) throw new AppError('invalid_page');
  const offset = (page - 1) * pageSize;
  const rows = await ctx.db.query<TransactionRow>(
    `SELECT t.idx, t.type, t.state, t.pidx, t.purchase_order_id, t.amount, t.fee_amount, t.refunded,
            t.payer_idx, t.payer_mobile, t.payer_name, t.created_at,
            m.idx AS merchant_idx, m.name AS merchant_name, m.mobile AS merchant_mobile
       FROM transactions t JOIN merchants m ON m.id = t.merchant_id
      WHERE ${where.sql}
      ORDER BY t.created_at DESC, t.id DESC
      LIMIT ${pageSize} OFFSET ${offset}`,
    where.params,
  );
  return {
    total_pages: totalPages,
    total_records: count,
    next: page < totalPages ? options.pageLink(page + 1) : null,
    previous: page > 1 ? options.pageLink(page - 1) : null,
    record_range: rows.length ? [offset + 1, offset + rows.length] : [0, 0],
    current_page: page,
    records: rows.map((row) => transactionRecord(row, timeZone)),
  };
}
