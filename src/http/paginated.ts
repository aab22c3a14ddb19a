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

/** The JSON schema of a page of `records` (each of `recordSchema`), for serialization and OpenAPI. */
export function paginatedSchema<S extends object>(recordSchema: S) {
  return {
    type: 'object',
    required: ['total_pages', 'total_records', 'next', 'previous', 'record_range', 'current_page', 'records'],
    properties: {
      total_pages: { type: 'integer' },
      total_records: { type: 'integer' },
      next: { type: ['string', 'null'], format: 'uri', description: 'Absolute URL of the next page with the same filters.' },
      previous: { type: ['string', 'null'], format: 'uri' },
      record_range: { type: 'array', items: { type: 'integer' }, minItems: 2, maxItems: 2 },
      current_page: { type: 'integer' },
      records: { type: 'array', items: recordSchema },
    },
  };
}
