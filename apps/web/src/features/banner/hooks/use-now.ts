import { useEffect, useState } from 'react';

const TICK_MS = 1000;

/** The clock, re-read every second while `ticking`; frozen otherwise (nothing left to count). */
export function useNow(ticking: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!ticking) return;
    const timer = setInterval(() => setNow(Date.now()), TICK_MS);
    return () => clearInterval(timer);
  }, [ticking]);
  return now;
}
