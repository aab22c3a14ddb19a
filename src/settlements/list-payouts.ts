// The reads of settlements: a page of a merchant's payouts in the transaction list's shape, and one
// payout with the records it settles. Another merchant's payout, or another environment's, is not found.
import type { AppContext } from '../context.js';
import { AppError } from '../http/errors.js';
import { paginated } from '../http/paginated.js';
import { payoutJson, payoutWithRecordsJson } from './payout-json.js';
import { findOwnPayout, listPayouts, payoutRecords, type Owner } from './payout-store.js';

export async function listPayoutPage(ctx: AppContext, owner: Owner, options: { page: number; pageSize: number; pageLink: (page: number) => string }) {
  const { page, pageSize } = options;
  const offset = (page - 1) * pageSize;
  const { total, payouts } = await listPayouts(ctx.db, owner, { limit: pageSize, offset });
  return paginated({ page, pageSize, total, offset, records: payouts.map((p) => payoutJson(p, ctx.config.timeZone)), pageLink: options.pageLink });
}

export async function getPayoutWithRecords(ctx: AppContext, owner: Owner, idx: string) {
  const payout = await findOwnPayout(ctx.db, owner, idx);
  if (!payout) throw new AppError('not_found');
  return payoutWithRecordsJson(payout, await payoutRecords(ctx.db, payout.id), ctx.config.timeZone);
}
