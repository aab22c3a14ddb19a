// The sandbox bank, the test environment's rail when an operator set it to the bank file (NPI's
// simulator is its rail by default, jobs/payout-rails-job.ts): test payouts go Requested →
// Processing → Paid by themselves, one step a run, so a merchant's developers see the whole flow
// (and its webhooks) within seconds. Several instances may
// run it: rows another is moving are skipped and each move is conditional, so nothing is paid twice.
import type { AppContext } from '../context.js';
import { applyPayoutMove } from '../settlements/move-payout.js';
import { lockPayoutsInState } from '../settlements/payout-store.js';

const BATCH = 100;

/** Pays the test payouts already Processing, then takes the Requested ones; resolves to how many moved. */
export async function runSandboxBank(ctx: AppContext): Promise<number> {
  let moved = 0;
  for (const [state, move] of [
    ['Processing', (idx: string) => ({ name: 'pay', reference: `SANDBOX-${idx}` }) as const],
    ['Requested', () => ({ name: 'process' }) as const],
  ] as const) {
    for (;;) {
      const count = await ctx.db.transaction(async (tx) => {
        const due = await lockPayoutsInState(tx, 'test', state, BATCH);
        for (const payout of due) await applyPayoutMove(ctx, tx, payout, move(payout.idx), ctx.clock.now());
        return due.length;
      });
      moved += count;
      if (count < BATCH) break;
    }
  }
  return moved;
}
