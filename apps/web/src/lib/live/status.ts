import type { LiveEvent } from '@coffer/contract/chain';
import { useSyncExternalStore } from 'react';

/**
 * The state of the live event stream, readable by any page, plus a small bus for its
 * events. Kept free of dependencies: the app shell imports it, the stream itself loads
 * lazily once the user is signed in.
 */

export type LiveStatus = 'off' | 'connecting' | 'open' | 'down';

/** Pages poll at this pace while the stream is not open (docs/product.md §9.3: live n/N). */
export const LIVE_FALLBACK_POLL_MS = 5_000;

let status: LiveStatus = 'off';
const statusListeners = new Set<() => void>();
const eventListeners = new Set<(event: LiveEvent) => void>();

export function getLiveStatus(): LiveStatus {
  return status;
}

export function setLiveStatus(next: LiveStatus): void {
  if (next === status) return;
  status = next;
  for (const listener of statusListeners) listener();
}

function subscribe(listener: () => void) {
  statusListeners.add(listener);
  return () => {
    statusListeners.delete(listener);
  };
}

export function useLiveStatus(): LiveStatus {
  return useSyncExternalStore(subscribe, getLiveStatus, getLiveStatus);
}

/**
 * refetchInterval for a query that should stay live: false while the stream pushes
 * updates, a short poll while it is down, false when there is nothing left to watch.
 */
export function fallbackPollInterval(status: LiveStatus, watching: boolean): number | false {
  return watching && status !== 'open' ? LIVE_FALLBACK_POLL_MS : false;
}

export function useFallbackPoll(watching: boolean): number | false {
  return fallbackPollInterval(useLiveStatus(), watching);
}

export function publishLiveEvent(event: LiveEvent): void {
  for (const listener of eventListeners) listener(event);
}

/** Listen to events as they arrive (e.g. to announce a credited deposit). */
export function onLiveEvent(listener: (event: LiveEvent) => void): () => void {
  eventListeners.add(listener);
  return () => {
    eventListeners.delete(listener);
  };
}
