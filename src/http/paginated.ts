// The paginated shape of specification 2.5 (the transaction list), which every list of records the
// API gives follows: the settlements too. Page numbers start at 1; a page past the last is an error.
import { AppError } from './errors.js';

export interface Paginated<T> {
  total_pages: number;
  total_records: number;
  next: string | null;
  previous: string | null;
  record_range: [number, number];
  current_page: number;
  records: T[];
}

/** One page of `total` records, of which `records` are the ones from `offset` on. */
export function paginated<T>(options: { page: number; pageSize: number; total: number; offset: number; records: T[]; pageLink: (page: number) => string }): Paginated<T> {
  const { page, total, offset, records } = options;
  const totalPages = Math.max(1, Math.ceil(total / options.pageSize));
  if (page > totalPages) throw new AppError('invalid_page');
  return {
    total_pages: totalPages,
    total_records: total,
    next: page < totalPages ? options.pageLink(page + 1) : null,
    previous: page > 1 ? options.pageLink(page - 1) : null,
    record_range: records.length ? [offset + 1, offset + records.length] : [0, 0],
    current_page: page,
    records,
  };
}
