import { startTransition, useEffect, useState } from 'react';

/**
 * False during the first paint, true right after it. Below-the-fold widgets that bring
 * their own chunks wait for it, so the page's main content paints without waiting for
 * (or competing with) their downloads.
 */
export function useAfterPaint(): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    // rAF fires before the next paint; the timeout lands after it.
    const frame = requestAnimationFrame(() => {
      // A transition: React renders those widgets in slices, yielding to the browser between
      // them, instead of one long task that blocks a tap (Lighthouse's total blocking time).
      timer = setTimeout(() => startTransition(() => setPainted(true)), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      if (timer) clearTimeout(timer);
    };
  }, []);
  return painted;
}
