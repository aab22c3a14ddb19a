// Persists `Expired` for overdue payments, and forgets idempotency keys older than a day. Reads
// report expiry on their own; the sweep makes the stored status match, so lists, reports and the
// payment's timeline show it too, and the payment.expired webhook goes out.
import type { AppContext } from '../context.js';
import { deleteExpiredIdempotencyKeys } from '../http/idempotency-store.js';
import { expireOverdue } from '../payments/state-machine.js';
import { periodicJob, type Job } from './periodic-job.js';

const BATCH = 500;

export function expirySweep(ctx: AppContext, onError: (error: unknown) => void): Job {
  const runOnce = async () => {
    await deleteExpiredIdempotencyKeys(ctx.db, ctx.clock.now());
    let total = 0;
    for (;;) {
      const expired = await expireOverdue(ctx.db, ctx.clock.now(), BATCH);
      total += expired.length;
      if (expired.length < BATCH) return total;
    }
  };

  return periodicJob({ runOnce, intervalMs: ctx.config.sweepIntervalSeconds * 1000, runAtStart: true, onError });
}
