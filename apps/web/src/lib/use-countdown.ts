import { useCallback, useEffect, useState } from 'react';

/** Seconds left before the mail code may be requested again; 0 when idle. */
export function useCountdown(seconds: number) {
  const [left, setLeft] = useState(0);

  useEffect(() => {
    if (left <= 0) return;
    const timer = setTimeout(() => setLeft((value) => value - 1), 1000);
    return () => clearTimeout(timer);
  }, [left]);

  const start = useCallback(() => setLeft(seconds), [seconds]);
  return { left, start, running: left > 0 };
}
