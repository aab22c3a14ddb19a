// A background job: `runOnce` on a timer, never two runs at once, stopped cleanly on shutdown.

export interface Job {
  /** Runs once now (tests call this directly); resolves to how much it did. */
  runOnce(): Promise<number>;
  start(): void;
  /** Stops the timer and waits for a run in progress. */
  stop(): Promise<void>;
}

export function periodicJob(options: { runOnce: () => Promise<number>; intervalMs: number; runAtStart?: boolean; onError: (error: unknown) => void }): Job {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;

  const tick = () => {
    if (running) return;
    running = options
      .runOnce()
      .catch((error) => {
        options.onError(error);
        return 0;
      })
      .finally(() => {
        running = undefined;
      });
  };

  return {
    runOnce: options.runOnce,
    start() {
      timer = setInterval(tick, options.intervalMs);
      timer.unref();
      if (options.runAtStart) tick();
    },
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
