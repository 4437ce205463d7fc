import { useEffect } from 'react';
import { isSignedIn } from '../lib/session';
import { useUserStore } from '../stores/user';

/**
 * Runs the live event stream (GET /api/events) while a user is signed in and restarts it
 * for another user. The stream code (and TanStack Query's client) loads only then, so the
 * first screen does not pay for it.
 */
export function LiveEvents() {
  const uid = useUserStore((state) => state.user?.uid);

  useEffect(() => {
    if (uid === undefined || !isSignedIn()) return;
    let cancelled = false;
    let stop: (() => void) | null = null;
    void Promise.all([import('../lib/live/live-updates'), import('../lib/query-client')]).then(([module, { queryClient }]) => {
      if (!cancelled) stop = module.startLiveUpdates(queryClient);
    });
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [uid]);

  return null;
}
