// The console's reads of merchants: the list by approval status (applied: the approval queue,
// oldest application first, index merchants_waiting) and the search by name, e-mail or idx. Merchants
// are thousands, not millions: a name search may read the table.
import type { Queryable } from '../db/db.js';
import type { ApprovalStatus, Merchant } from './merchant.js';
import { MERCHANT_COLUMNS } from './merchant-store.js';

export type MerchantListRow = Merchant & { applied_at: Date | null };

export async function listMerchants(db: Queryable, options: { status?: ApprovalStatus; term?: string; limit: number }): Promise<MerchantListRow[]> {
  const params: unknown[] = [];
  const where: string[] = [];
  if (options.status) where.push(`m.status = $${params.push(options.status)}`);
  if (options.term) {
    const p = params.push(options.term);
    const like = params.push(`%${options.term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    where.push(`(m.idx = $${p} OR lower(m.email) = lower($${p}) OR m.name ILIKE $${like})`);
  }
  const order = options.status === 'applied' ? 'm.applied_at, m.id' : 'm.id DESC';
  return db.query<MerchantListRow>(
    `SELECT ${MERCHANT_COLUMNS}, m.applied_at FROM merchants m ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY ${order} LIMIT $${params.push(options.limit)}`,
    params,
  );
}
