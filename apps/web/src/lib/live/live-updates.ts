import type { LiveEvent } from '@coffer/contract/chain';
import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { API_BASE_URL } from '../api-client';
import { DEFAULT_LANGUAGE } from '../language';
import { local, STORAGE_KEYS, tokenStorage } from '../storage';
import { queryKeys } from '../query-keys';
import { type EventStream, startEventStream } from './event-stream';
import { publishLiveEvent, setLiveStatus } from './status';

/** Keys a live event makes stale: balances, deposits, withdrawals (details and limits among them), statements. */
const ALWAYS: readonly QueryKey[] = [queryKeys.balances.all, queryKeys.deposits.all, queryKeys.withdrawals.all, queryKeys.turnover.all];

/**
 * Reads one event's data. Only what the app acts on is checked (a known type, an integer
 * id, a status string), so the stream module stays free of the schema library; the unit
 * test holds this to the contract's liveEvent schema.
 */
export function parseLiveEvent(data: string): LiveEvent | null {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const { type, id, status } = value as Record<string, unknown>;
  if (type !== 'deposit' && type !== 'withdraw' && type !== 'balance') return null;
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || typeof status !== 'string') return null;
  return { type, id, status };
}

/** The query keys to mark stale for an event. */
export function keysToInvalidate(event: LiveEvent): QueryKey[] {
  const keys = [...ALWAYS];
  if (event.type === 'deposit') keys.push(queryKeys.deposits.detail(event.id));
  if (event.type === 'withdraw') keys.push(queryKeys.withdrawals.detail(event.id));
  return keys;
}

function invalidate(queryClient: QueryClient, keys: readonly QueryKey[]) {
  for (const queryKey of keys) void queryClient.invalidateQueries({ queryKey });
}

/** Headers of the stream request, like the HTTP client's; null when signed out. */
function streamHeaders(): Record<string, string> | null {
  const token = tokenStorage.get();
  if (!token) return null;
  return {
    'X-Token': token,
    'accept-language': local.get(STORAGE_KEYS.language) ?? DEFAULT_LANGUAGE,
    'ngrok-skip-browser-warning': 'true',
  };
}

/**
 * Follows GET /api/events while signed in: each event marks the affected queries stale;
 * after a break everything on-chain is refreshed (events may have been missed). Returns
 * the function that stops it.
 */
export function startLiveUpdates(queryClient: QueryClient): () => void {
  const stream: EventStream = startEventStream({
    url: `${API_BASE_URL}/events`,
    headers: streamHeaders,
    onMessage: (message) => {
      const event = parseLiveEvent(message.data);
      if (!event) return;
      invalidate(queryClient, keysToInvalidate(event));
      publishLiveEvent(event);
    },
    onReopen: () => invalidate(queryClient, ALWAYS),
    onState: (state) => setLiveStatus(state === 'stopped' ? 'off' : state),
  });
  const online = () => stream.retryNow();
  const visible = () => {
    if (document.visibilityState === 'visible') stream.retryNow();
  };
  window.addEventListener('online', online);
  document.addEventListener('visibilitychange', visible);
  return () => {
    window.removeEventListener('online', online);
    document.removeEventListener('visibilitychange', visible);
    stream.stop();
    setLiveStatus('off');
  };
}
