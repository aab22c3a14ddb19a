// The payout rails' job: each environment's payouts move on through its rail. Through NPI (the test
// environment's simulator unless an operator set test otherwise, live once set up) a run validates
// accounts, posts and asks NPI's reports (settlements/npi-payouts.ts); a test environment on the bank
// file is paid by the sandbox bank; live payouts on the bank file wait for the operators' export.
import type { AppContext } from '../context.js';
import { runNpiPayouts } from '../settlements/npi-payouts.js';
import { findPayoutRail, npiConnectorOf } from '../settlements/payout-rail-setup.js';
import { periodicJob, type Job } from './periodic-job.js';
import { runSandboxBank } from './sandbox-bank.js';

/** One run for both environments; resolves to how many payouts moved. */
export async function runPayoutRails(ctx: AppContext): Promise<number> {
  let moved = 0;
  const problems: unknown[] = [];
  for (const environment of ['test', 'live'] as const) {
    try {
      const rail = await findPayoutRail(ctx, environment);
      if (rail.rail === 'npi') {
        const connector = npiConnectorOf(ctx, rail.setup);
        moved += await runNpiPayouts(ctx, { environment, connector, setup: rail.setup, batchSeconds: environment === 'live' ? ctx.config.npiBatchSeconds : 0 });
      } else if (environment === 'test') {
        moved += await runSandboxBank(ctx);
      }
    } catch (error) {
      // One environment's trouble (an expired key) does not stop the other's payouts.
      problems.push(error);
    }
  }
  if (problems.length > 0) throw problems.length === 1 ? problems[0] : new AggregateError(problems, 'both payout rails failed');
  return moved;
}

export function payoutRailsJob(ctx: AppContext, onError: (error: unknown) => void): Job {
  return periodicJob({ runOnce: () => runPayoutRails(ctx), intervalMs: ctx.config.sandboxBankIntervalMs, onError });
}
