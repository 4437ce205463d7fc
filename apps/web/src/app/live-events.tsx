import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { isSignedIn } from '../lib/session';
import { useUserStore } from '../stores/user';

/**
 * Runs the live event stream (GET /api/events) while a user is signed in and restarts it
 * for another user. The stream code loads only then, so the first screen does not pay
 * for it.
 */
export function LiveEvents() {
  const uid = useUserStore((state) => state.user?.uid);
  const queryClient = useQueryClient();

  useEffect(() => {
    if (uid === undefined || !isSignedIn()) return;
    let cancelled = false;
    let stop: (() => void) | null = null;
    void import('../lib/live/live-updates').then((module) => {
      if (!cancelled) stop = module.startLiveUpdates(queryClient);
    });
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [uid, queryClient]);

  return null;
}
