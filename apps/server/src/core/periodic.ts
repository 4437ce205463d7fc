/** Where a periodic job says its run failed (the next run retries). */
export interface PeriodicLog {
  warn(obj: object, msg: string): void;
}

/**
 * Runs `run` every `intervalMs` on an unref'd timer (it never keeps the process alive), one run
 * at a time: a tick that finds the last run still going skips. A failed run is logged with
 * `failure` and the next tick retries. stop() ends the timer and waits for a run in progress, so
 * the database can be closed after it.
 */
export function startPeriodic(opts: { intervalMs: number; log: PeriodicLog; failure: string; run: () => Promise<void> }) {
  let running: Promise<void> | undefined;
  const tick = () => {
    running ??= opts
      .run()
      .catch((err: unknown) => opts.log.warn({ error: err instanceof Error ? err.message : String(err) }, opts.failure))
      .finally(() => {
        running = undefined;
      });
  };
  const timer = setInterval(tick, opts.intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
