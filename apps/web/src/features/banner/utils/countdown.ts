/**
 * Where an activity stands at `now`, and how long until its next boundary. Pure (the clock
 * is a parameter) so the ranking page's countdown is tested without timers.
 */

export type ActivityPhase = 'upcoming' | 'live' | 'ended';

const SECOND_MS = 1000;
const MINUTE_S = 60;
const HOUR_S = 60 * MINUTE_S;
const DAY_S = 24 * HOUR_S;

export interface Countdown {
  phase: ActivityPhase;
  /** Whole seconds to the start (upcoming) or the end (live); 0 once ended. */
  seconds: number;
}

/** Phase and seconds left; unparseable times count as ended, so nothing ticks on bad data. */
export function countdownAt(startAt: string, endAt: string, now: number): Countdown {
  const start = Date.parse(startAt);
  const end = Date.parse(endAt);
  if (!Number.isFinite(start) || !Number.isFinite(end) || now >= end) return { phase: 'ended', seconds: 0 };
  if (now < start) return { phase: 'upcoming', seconds: Math.ceil((start - now) / SECOND_MS) };
  return { phase: 'live', seconds: Math.ceil((end - now) / SECOND_MS) };
}

export interface DurationParts {
  days: number;
  /** Two-digit clock parts. */
  hh: string;
  mm: string;
  ss: string;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** 93784 s -> {days: 1, hh: "02", mm: "03", ss: "04"}; negatives count as 0. */
export function splitDuration(totalSeconds: number): DurationParts {
  const s = Math.max(0, Math.floor(totalSeconds));
  return {
    days: Math.floor(s / DAY_S),
    hh: pad(Math.floor((s % DAY_S) / HOUR_S)),
    mm: pad(Math.floor((s % HOUR_S) / MINUTE_S)),
    ss: pad(s % MINUTE_S),
  };
}
