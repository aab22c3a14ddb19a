// Persists `Expired` for overdue payments (and forgets idempotency keys older than a day). Reads already report expiry on their own; the sweep makes
// the stored status match, so lists, reports and the payment's timeline show it too.
import type { AppContext } from '../context.js';
import { deleteExpiredIdempotencyKeys } from '../http/idempotency-store.js';
import { expireOverdue } from '../payments/state-machine.js';

const BATCH = 500;

export interface Job {
  /** Runs once now (tests call this directly). */
  runOnce(): Promise<number>;
  start(): void;
  /** Stops the timer and waits for a run in progress. */
  stop(): Promise<void>;
}

export function expirySweep(ctx: AppContext, onError: (error: unknown) => void): Job {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;

  const runOnce = async () => {
    await deleteExpiredIdempotencyKeys(ctx.db, ctx.clock.now());
    let total = 0;
    for (;;) {
      const expired = await expireOverdue(ctx.db, ctx.clock.now(), BATCH);
      total += expired.length;
      if (expired.length < BATCH) return total;
    }
  };

  const tick = () => {
    if (running) return;
    running = runOnce()
      .catch((error) => {
        onError(error);
        return 0;
      })
      .finally(() => {
        running = undefined;
      });
  };

  return {
    runOnce,
    start() {
      timer = setInterval(tick, ctx.config.sweepIntervalSeconds * 1000);
      timer.unref();
      tick();
    },
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
