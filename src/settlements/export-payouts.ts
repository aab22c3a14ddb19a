// The operator's batch to the bank: every live Requested payout moves to
// Processing in one transaction and comes back as a row of the bank's bulk-transfer file, so a payout
// is exported once, whoever else exports at the same time.
import type { Actor } from '../audit/audit-entry.js';
import { appendAudit } from '../audit/audit-store.js';
import type { AppContext } from '../context.js';
import { AppError } from '../http/errors.js';
import { applyPayoutMove } from './move-payout.js';
import { findPayoutRail } from './payout-rail-setup.js';
import type { Payout } from './payout.js';
import { lockPayoutsInState } from './payout-store.js';

const BATCH = 500;

export const LIVE_RAIL_IS_NPI = 'The live payout rail is NPI: payouts go by themselves. The bank file serves the file rail only (bhuktani payout rail set file --env live).';

/**
 * `deliver` writes the bank's file inside the transaction: if it fails, nothing moves; a payout is
 * Processing only if its row was written.
 */
export async function exportPayouts(ctx: AppContext, input: { actor: Actor; deliver: (payouts: Payout[]) => Promise<void> }): Promise<Payout[]> {
  // Through NPI a payout goes by itself: a file too would send it twice (or race NPI's run for it).
  if ((await findPayoutRail(ctx, 'live')).rail === 'npi') throw new AppError('conflict', { detail: LIVE_RAIL_IS_NPI });
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const exported: Payout[] = [];
    for (;;) {
      const due = await lockPayoutsInState(tx, 'live', 'Requested', BATCH);
      for (const payout of due) {
        const moved = await applyPayoutMove(ctx, tx, payout, { name: 'process' }, now);
        if (!moved) continue;
        exported.push(moved);
        await appendAudit(tx, { now, actor: input.actor, action: 'payout.export', object: { type: 'payout', id: moved.idx }, environment: 'live', before: { state: 'Requested' }, after: { state: 'Processing' } });
      }
      if (due.length < BATCH) {
        await input.deliver(exported);
        return exported;
      }
    }
  });
}
