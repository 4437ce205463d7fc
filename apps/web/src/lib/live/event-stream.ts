import { type SseMessage, SseParser } from './sse-parser';

/**
 * A resumable server-sent-event connection over fetch (EventSource cannot send headers):
 * reconnects with exponential backoff and jitter, resumes with Last-Event-ID, gives up
 * only when the server says the session is gone.
 */

export type StreamState = 'connecting' | 'open' | 'down' | 'stopped';

export interface BackoffOptions {
  /** Delay before the first retry, before jitter. */
  baseMs: number;
  /** Longest delay between attempts. */
  maxMs: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 1000, maxMs: 30_000 };

/**
 * After the server closed this stream for a newer one of the same session or account (too
 * many open: `event: closed`, code 2011), wait this long before coming back, or until
 * retryNow() (the tab became visible again): tabs that came back at once would only close
 * each other's streams in turn. Meanwhile the app polls as it does while the stream is down.
 */
export const EVICTED_RETRY_MS = 5 * 60_000;

/**
 * Delay before retry number `attempt` (0 for the first): base * 2^attempt capped at max,
 * then "equal jitter" (half fixed, half random) so many clients do not reconnect in step.
 */
export function backoffDelay(attempt: number, options: BackoffOptions = DEFAULT_BACKOFF, random = Math.random): number {
  const exponential = options.baseMs * 2 ** Math.min(Math.max(attempt, 0), 30);
  const capped = Math.min(options.maxMs, exponential);
  return Math.round(capped / 2 + (random() * capped) / 2);
}

/** How one connection attempt ended. */
export type AttemptOutcome =
  /** The server ended the stream or the connection broke: try again. */
  | { kind: 'retry'; healthy: boolean }
  /** The server closed it for a newer stream (`event: closed`, 2011): try again much later. */
  | { kind: 'evicted' }
  /** The session is not valid (code 2001, HTTP 401/403): retrying cannot help. */
  | { kind: 'unauthorized' }
  /** stop() was called. */
  | { kind: 'aborted' };

export interface EventStreamOptions {
  url: string;
  /** Headers for each attempt (the X-Token among them); null stops the stream (signed out). */
  headers: () => Record<string, string> | null;
  onMessage: (message: SseMessage) => void;
  onState?: (state: StreamState) => void;
  /** A connection opened again after a break: events may have been missed meanwhile. */
  onReopen?: () => void;
  fetch?: typeof fetch;
  backoff?: BackoffOptions;
  /** No bytes (data or keep-alive comment) for this long means a dead connection. */
  idleTimeoutMs?: number;
  random?: () => number;
  /** A connection open this long before it broke counts as healthy: the backoff starts over. */
  healthyAfterMs?: number;
  now?: () => number;
  /** Waits `ms` or until the signal aborts; replaceable in tests. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

export interface EventStream {
  stop(): void;
  /** Skip the current backoff wait and connect now (e.g. the browser came back online). */
  retryNow(): void;
  /** The ID the next attempt sends as Last-Event-ID. */
  readonly lastEventId: string;
}

function defaultSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) {
      resolve();
      return;
    }
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done);
  });
}

const UNAUTHORIZED_CODE = 2001;

/** True when a non-stream reply is the envelope of code 2001 (not signed in). */
async function isSessionRefusal(response: Response): Promise<boolean> {
  if (response.status === 401 || response.status === 403) return true;
  try {
    const body: unknown = await response.json();
    return typeof body === 'object' && body !== null && (body as { code?: unknown }).code === UNAUTHORIZED_CODE;
  } catch {
    return false;
  }
}

export function startEventStream(options: EventStreamOptions): EventStream {
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const sleep = options.sleep ?? defaultSleep;
  const backoff = options.backoff ?? DEFAULT_BACKOFF;
  const idleTimeoutMs = options.idleTimeoutMs ?? 75_000;
  const healthyAfterMs = options.healthyAfterMs ?? 5_000;
  const now = options.now ?? Date.now;
  const stopped = new AbortController();
  let wake = new AbortController();
  let everOpened = false;
  let evicted = false;
  // `closed` is the server's notice that a newer stream took this one's place, not an app event.
  const parser = new SseParser((message) => {
    if (message.event === 'closed') evicted = true;
    else options.onMessage(message);
  });

  const setState = (state: StreamState) => options.onState?.(state);

  async function attempt(headers: Record<string, string>): Promise<AttemptOutcome> {
    const controller = new AbortController();
    const abort = () => controller.abort();
    stopped.signal.addEventListener('abort', abort);
    let idleTimer: ReturnType<typeof setTimeout> | undefined;
    const armIdle = () => {
      clearTimeout(idleTimer);
      idleTimer = setTimeout(abort, idleTimeoutMs);
    };
    let openedAt: number | null = null;
    const outcome = (): AttemptOutcome => {
      if (stopped.signal.aborted) return { kind: 'aborted' };
      if (evicted) return { kind: 'evicted' };
      return { kind: 'retry', healthy: openedAt !== null && now() - openedAt >= healthyAfterMs };
    };
    evicted = false;
    try {
      armIdle();
      const response = await doFetch(options.url, {
        headers: {
          ...headers,
          accept: 'text/event-stream',
          'cache-control': 'no-cache',
          ...(parser.lastEventId ? { 'last-event-id': parser.lastEventId } : {}),
        },
        cache: 'no-store',
        signal: controller.signal,
      });
      const type = response.headers.get('content-type') ?? '';
      if (!response.ok || !type.includes('text/event-stream') || !response.body) {
        if (await isSessionRefusal(response)) return { kind: 'unauthorized' };
        return outcome();
      }
      openedAt = now();
      setState('open');
      if (everOpened) options.onReopen?.();
      everOpened = true;
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      // Stop or idle timeout: end a pending read even where aborting fetch does not.
      controller.signal.addEventListener('abort', () => void reader.cancel().catch(() => {}));
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          armIdle();
          parser.push(decoder.decode(value, { stream: true }));
        }
        parser.push(decoder.decode());
      } finally {
        parser.end();
      }
      return outcome();
    } catch {
      return outcome();
    } finally {
      clearTimeout(idleTimer);
      stopped.signal.removeEventListener('abort', abort);
      // Releases the connection whichever way the attempt ended.
      controller.abort();
    }
  }

  async function run() {
    let failures = 0;
    while (!stopped.signal.aborted) {
      const headers = options.headers();
      if (!headers) break;
      setState('connecting');
      const outcome = await attempt(headers);
      if (outcome.kind === 'aborted' || stopped.signal.aborted) break;
      if (outcome.kind === 'unauthorized') break;
      setState('down');
      let delay = EVICTED_RETRY_MS;
      if (outcome.kind === 'retry') {
        // A connection that stayed up proves the way is clear: start the backoff over.
        if (outcome.healthy) failures = 0;
        const server = parser.retry ?? 0;
        delay = Math.max(server, backoffDelay(failures, backoff, options.random));
        failures += 1;
      }
      wake = new AbortController();
      if (stopped.signal.aborted) break;
      await sleep(delay, wake.signal);
    }
    setState('stopped');
  }

  void run();

  return {
    stop: () => {
      stopped.abort();
      wake.abort();
    },
    retryNow: () => wake.abort(),
    get lastEventId() {
      return parser.lastEventId;
    },
  };
}
