// The merchant transaction list (specification 2.5): one page of the records of
// one merchant's environment, newest first, with links to the neighbouring pages.
import type { AppContext } from '../context.js';
import { lagging } from '../db/db.js';
import { paginated, type Paginated } from '../http/paginated.js';
import type { ApiCaller } from '../merchants/merchant.js';
import { ALL_STATES, countClosedHours, countedRecords, hourOfPosition } from './hour-counts.js';
import type { ListFilters } from './list-query.js';
import { transactionRecord, type TransactionRecord, type TransactionRow } from './transaction-record.js';

export type TransactionPage = Paginated<TransactionRecord>;

/** Whose list: the API's caller, or the merchant logged in to the dashboard, in one environment. */
export type TransactionOwner = Pick<ApiCaller, 'merchant' | 'environment'>;

export function whereClause(owner: TransactionOwner, filters: ListFilters, timeZone: string): { sql: string; params: unknown[] } {
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

export const RECORD_COLUMNS = `t.idx, t.type, t.state, t.pidx, t.purchase_order_id, t.amount, t.fee_amount, t.refunded,
            t.payer_idx, t.payer_mobile, t.payer_name, t.created_at, t.payment_link,
            m.idx AS merchant_idx, m.name AS merchant_name, m.mobile AS merchant_mobile`;

/** One page of records matching `where`, newest first, skipping `offset` of them. */
async function pageRows(ctx: AppContext, where: { sql: string; params: unknown[] }, pageSize: number, offset: number): Promise<TransactionRow[]> {
  return lagging(ctx.db).query<TransactionRow>(
    `SELECT ${RECORD_COLUMNS}
       FROM transactions t JOIN merchants m ON m.id = t.merchant_id
      WHERE ${where.sql}
      ORDER BY t.created_at DESC, t.id DESC
      LIMIT ${pageSize} OFFSET ${offset}`,
    where.params,
  );
}

export const withCondition = (where: { sql: string; params: unknown[] }, condition: (p: string) => string, value: unknown) => ({
  sql: `${where.sql} AND ${condition(`$${where.params.length + 1}`)}`,
  params: [...where.params, value],
});

/**
 * The whole list, or one state of it: the total from counted hours plus a live count of the open
 * ones, and a page found by hour, so the work is the same on page 1 and page 25,000.
 */
async function countedPage(ctx: AppContext, owner: TransactionOwner, where: { sql: string; params: unknown[] }, state: string, page: number, pageSize: number) {
  const ownerKey = { merchantId: owner.merchant.id, environment: owner.environment };
  // Counting the closed hours writes, so on the primary; the rest reads, and may lag (`lagging`).
  const until = await countClosedHours(ctx.db, ownerKey, ctx.clock.now());
  const open = withCondition(where, (p) => `t.created_at >= ${p}`, until);
  const [{ count: openCount }] = await lagging(ctx.db).query<{ count: number }>(`SELECT count(*) AS count FROM transactions t WHERE ${open.sql}`, open.params);
  const total = openCount + (await countedRecords(lagging(ctx.db), ownerKey, state, until));
  const offset = (page - 1) * pageSize;
  if (offset >= total) return { total, offset, rows: [] };
  if (offset < openCount) return { total, offset, rows: await pageRows(ctx, where, pageSize, offset) };
  const start = await hourOfPosition(lagging(ctx.db), ownerKey, state, until, offset - openCount);
  if (!start) return { total, offset, rows: [] };
  const older = withCondition(where, (p) => `t.created_at < ${p}`, start.hourEnd);
  return { total, offset, rows: await pageRows(ctx, older, pageSize, offset - openCount - start.before) };
}

/** Any other filter (an order, a search, dates) narrows the list enough to count and skip directly. */
async function filteredPage(ctx: AppContext, where: { sql: string; params: unknown[] }, page: number, pageSize: number) {
  const [{ count }] = await lagging(ctx.db).query<{ count: number }>(`SELECT count(*) AS count FROM transactions t WHERE ${where.sql}`, where.params);
  const offset = (page - 1) * pageSize;
  return { total: count, offset, rows: offset < count ? await pageRows(ctx, where, pageSize, offset) : [] };
}

export async function listTransactions(
  ctx: AppContext,
  owner: TransactionOwner,
  options: { filters: ListFilters; page: number; pageSize: number; pageLink: (page: number) => string },
): Promise<TransactionPage> {
  const { filters, page, pageSize } = options;
  const timeZone = ctx.config.timeZone;
  const where = whereClause(owner, filters, timeZone);
  const byHour = !filters.purchase_order_id && !filters.search && !filters.from && !filters.to;
  const { total, offset, rows } = byHour ? await countedPage(ctx, owner, where, filters.status ?? ALL_STATES, page, pageSize) : await filteredPage(ctx, where, page, pageSize);
  return paginated({ page, pageSize, total, offset, records: rows.map((row) => transactionRecord(row, timeZone)), pageLink: options.pageLink });
}
