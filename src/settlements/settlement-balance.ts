// A merchant's balance in one environment as settlements see it: pending, available, and in clearing.
import type { AppContext } from '../context.js';
import type { Queryable } from '../db/db.js';
import { holdCutoff, splitBalance, type SettlementBalance } from './balance.js';
import { balanceFigures, type Owner } from './payout-store.js';

/** The balance now; `db` is the caller's transaction when it holds the debit lock. */
export async function settlementBalance(ctx: AppContext, owner: Owner, db: Queryable = ctx.db): Promise<SettlementBalance> {
  return splitBalance(await balanceFigures(db, owner, holdCutoff(ctx.clock.now(), ctx.config.settlementHoldHours)));
}
