// Asks providers again about attempts whose outcome is not known, and makes the refunds due at them
// (src/providers/reconcile-attempts.ts), every PROVIDER_RECONCILE_INTERVAL_SECONDS on every instance.
import type { Logger } from 'pino';
import type { AppContext } from '../context.js';
import { reconcileAttempts } from '../provider-payments/reconcile-attempts.js';
import { periodicJob, type Job } from './periodic-job.js';

export function providerReconcileJob(ctx: AppContext, log: Pick<Logger, 'error'>, onError: (error: unknown) => void): Job {
  return periodicJob({ runOnce: () => reconcileAttempts(ctx, log), intervalMs: ctx.config.providerReconcileIntervalSeconds * 1000, onError });
}
