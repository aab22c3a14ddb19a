import { AppError } from '../http/errors.js';
import { choice, date, integer, object, text } from '../http/fields.js';
import { recordStateNames } from './transaction-record.js';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

/** Query parameters of the transaction list. `page` and `page_size` are read leniently, as the gateway does. */
export const listFilters = object({
  status: choice(recordStateNames, { description: 'Record state: Completed, Confirmed (held, Pending) or Canceled.' }),
  from: date({ description: 'Records created on or after this date (YYYY-MM-DD in TIME_ZONE, or an ISO timestamp).' }),
  to: date({ description: 'Records created on or before this date (YYYY-MM-DD in TIME_ZONE, or an ISO timestamp).' }),
  purchase_order_id: text({ description: 'Only records of this order.' }),
});

/** `search` (a pidx or a purchase_order_id) is the dashboard's; the API does not read it. */
export type ListFilters = { status?: string; from?: string; to?: string; purchase_order_id?: string; search?: string };

/** Documented beside the filters; read leniently, as the gateway does. */
export const pagingParameters = {
  page: integer({ description: 'Page number, from 1.' }),
  page_size: integer({ description: `Records per page, 1 to ${MAX_PAGE_SIZE} (default ${DEFAULT_PAGE_SIZE}).` }),
};

/** The query schema of a list read only by page (payouts, payment links): documentation, paging is read leniently. */
export const pageQuerySchema = {
  type: 'object',
  properties: { page: pagingParameters.page.jsonSchema, page_size: pagingParameters.page_size.jsonSchema },
};

export function pageSizeOf(value: unknown): number {
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(n) || n < 1) return DEFAULT_PAGE_SIZE;
  return Math.min(n, MAX_PAGE_SIZE);
}

/** A page number, or undefined when it is not a positive integer (answered as "Invalid page."). */
export function pageOf(value: unknown): number | undefined {
  if (value === undefined) return 1;
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : NaN;
  return Number.isSafeInteger(n) && n >= 1 ? n : undefined;
}

/**
 * A list's paging from its query: the page asked for (a page that is not a positive integer throws
 * 'invalid_page'), its size, and the absolute address of any page of the same list, `path` on
 * `publicUrl` with `filters` kept.
 */
export function pagingOf(query: Record<string, unknown>, list: { publicUrl: string; path: string; filters?: Record<string, string | undefined> }) {
  const page = pageOf(query.page);
  if (page === undefined) throw new AppError('invalid_page');
  const pageSize = pageSizeOf(query.page_size);
  const pageLink = (n: number) => {
    const params = new URLSearchParams({ page: String(n), page_size: String(pageSize) });
    for (const [key, value] of Object.entries(list.filters ?? {})) if (value) params.set(key, value);
    return `${list.publicUrl}${list.path}?${params}`;
  };
  return { page, pageSize, pageLink };
}
