/**
 * Milliseconds since the epoch, as a job sees them. A worker or job that decides by elapsed
 * time (is a run due, how old is a row) takes one of these and reads time only from it;
 * production passes Date.now, a test passes a value it moves, so no test sleeps to let time
 * pass (docs/decisions/064-clocks-and-waits.md).
 */
export type Clock = () => number;
