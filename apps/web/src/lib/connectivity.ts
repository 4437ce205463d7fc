import { useSyncExternalStore } from 'react';

/**
 * Whether the app can reach its server (decision 021): the browser's own online flag, and
 * whether the last request got no answer at all (the network is up but the server is not).
 * Kept free of the HTTP client so the layout's banner adds almost nothing to the first screen.
 */
let unanswered = false;
const listeners = new Set<() => void>();

function emit() {
  for (const listener of listeners) listener();
}

/** The HTTP layer reports each request's fate: answered (any status) or not. */
export function reportAnswered(answered: boolean) {
  if (unanswered === !answered) return;
  unanswered = !answered;
  emit();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  const back = () => {
    // The browser says the network is back; the next request confirms the server.
    unanswered = false;
    listener();
  };
  window.addEventListener('online', back);
  window.addEventListener('offline', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('online', back);
    window.removeEventListener('offline', listener);
  };
}

function isOnline() {
  return navigator.onLine && !unanswered;
}

export function useOnline(): boolean {
  return useSyncExternalStore(subscribe, isOnline, () => true);
}
