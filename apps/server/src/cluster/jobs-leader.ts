import { takeLeadership } from '../chain/leader.ts';
import type { Database } from '../db/client.ts';

/** Advisory lock key of the jobs leader (one per database; the chain leader has its own). */
export const JOBS_LEADER_LOCK = 7341021;
/** How often a process that does not lead tries to take the lead, and the leader checks it still holds it. */
export const JOBS_LEADER_RETRY_MS = 5_000;

/** A periodic job started while this process leads and stopped when it stops leading. */
export interface LeaderJob {
  stop(): Promise<void>;
}

export interface JobsLeaderLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/**
 * Runs the periodic jobs (expired-row cleanup, activity payouts) in exactly one process per
 * database, whatever the number of API processes (docs/scaling.md). On PostgreSQL the lead is
 * a session advisory lock (the chain leader's mechanism, chain/leader.ts): if the leading
 * process dies its connection closes, the lock goes, and another process takes over within
 * JOBS_LEADER_RETRY_MS. PGlite serves one process, which always leads. The jobs themselves
 * stay safe to run twice (row locks, idempotent deletes): a lost lead stops them at the next
 * check, and a tick already running finishes.
 */
export function startJobsLeader(opts: { database: Database; log: JobsLeaderLog; start: () => LeaderJob[]; retryMs?: number }) {
  const retryMs = opts.retryMs ?? JOBS_LEADER_RETRY_MS;
  let leadership: Awaited<ReturnType<typeof takeLeadership>> = null;
  let jobs: LeaderJob[] = [];
  let stopped = false;
  let checking: Promise<void> | undefined;

  const stopJobs = async () => {
    const running = jobs;
    jobs = [];
    await Promise.all(running.map((job) => job.stop()));
  };

  const check = async () => {
    if (stopped) return;
    if (leadership && !leadership.held()) {
      opts.log.warn({}, 'jobs: lead lost (connection closed); jobs stopped, retrying');
      leadership = null;
      await stopJobs();
    }
    if (leadership) return;
    try {
      leadership = await takeLeadership(opts.database, JOBS_LEADER_LOCK);
    } catch (err) {
      opts.log.warn({ error: err instanceof Error ? err.message : String(err) }, 'jobs: could not try the lead; retrying');
      return;
    }
    if (!leadership || stopped) {
      await leadership?.release();
      leadership = stopped ? null : leadership;
      return;
    }
    jobs = opts.start();
    opts.log.info({}, 'jobs: this process leads the periodic jobs');
  };

  const tick = () => {
    checking ??= check().finally(() => {
      checking = undefined;
    });
    return checking;
  };
  const first = tick();
  const timer = setInterval(tick, retryMs);
  timer.unref();

  return {
    /** Resolves once the first try to take the lead has finished. */
    ready: first,
    isLeader: () => leadership?.held() === true,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await checking;
      await stopJobs();
      await leadership?.release();
      leadership = null;
    },
  };
}
