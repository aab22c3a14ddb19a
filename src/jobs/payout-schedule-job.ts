// Requests the automatic payouts that are due (src/settlements/run-payout-schedules.ts), on a timer.
import type { AppContext } from '../context.js';
import { runPayoutSchedules } from '../settlements/run-payout-schedules.js';
import { periodicJob, type Job } from './periodic-job.js';

export function payoutScheduleJob(ctx: AppContext, log: { warn(object: object, message: string): void }, onError: (error: unknown) => void): Job {
  return periodicJob({
    runOnce: () => runPayoutSchedules(ctx, (merchantId, error) => log.warn({ merchantId, err: error }, 'scheduled payout refused')),
    intervalMs: ctx.config.payoutScheduleIntervalSeconds * 1000,
    runAtStart: true,
    onError,
  });
}
