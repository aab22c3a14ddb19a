// The automatic payouts that are due: for every schedule whose current period has no payout yet and
// whose merchant has at least the minimum available, one payout of all that is available. The
// period is claimed (scheduled_payouts' primary key) in the payout's own transaction, under the
// merchant's debit lock, so however many instances run this at once a period pays out once; a
// balance below the minimum claims nothing, and a later run of the same period tries again.
import type { AppContext } from '../context.js';
import { environments } from '../environment.js';
import { duePeriod } from './payout-schedule.js';
import { claimSchedulePeriod, listPayoutSchedules, schedulePeriodClaimed } from './payout-schedule-store.js';
import { requestPayout } from './request-payout.js';
import { settlementBalance } from './settlement-balance.js';

/** Rolls a scheduled payout back: the period was taken meanwhile, or the balance fell under the minimum. */
class NotDue extends Error {}

/**
 * Resolves to how many payouts it requested. A merchant the request refuses (live but not approved,
 * no bank account) is reported to `onRefused` and skipped until the next run; so is one whose request
 * fails unexpectedly, so one merchant cannot hold up the others.
 */
export async function runPayoutSchedules(ctx: AppContext, onRefused: (merchantId: number, error: unknown) => void): Promise<number> {
  let requested = 0;
  const now = ctx.clock.now();
  for (const environment of environments) {
    for (const schedule of await listPayoutSchedules(ctx.db, environment)) {
      const period = duePeriod(schedule, now, ctx.config.timeZone);
      if (!period || (schedule.lastPeriod !== null && schedule.lastPeriod >= period)) continue;
      const owner = { merchantId: schedule.merchantId, environment };
      const { available } = await settlementBalance(ctx, owner);
      if (available <= 0 || available < schedule.minimumAmount) continue;
      try {
        await requestPayout(ctx, {
          ...owner,
          requestedBy: 'schedule',
          inTransaction: async (tx, payout) => {
            if (payout.amount < schedule.minimumAmount) throw new NotDue();
            if (!(await claimSchedulePeriod(tx, { ...owner, periodStart: period, payoutId: payout.id, now }))) throw new NotDue();
          },
        });
        requested += 1;
      } catch (error) {
        if (error instanceof NotDue) continue;
        // Another instance made this period's payout first and took the balance: not a refusal.
        if (await schedulePeriodClaimed(ctx.db, { ...owner, periodStart: period })) continue;
        onRefused(schedule.merchantId, error);
      }
    }
  }
  return requested;
}
