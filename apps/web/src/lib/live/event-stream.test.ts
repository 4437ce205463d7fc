import { describe, expect, it, vi } from 'vitest';
import { backoffDelay, DEFAULT_BACKOFF, EVICTED_RETRY_MS, type StreamState, startEventStream } from './event-stream';
import type { SseMessage } from './sse-parser';

describe('backoffDelay', () => {
  it('doubles from the base up to the cap, with half of it jittered', () => {
    const low = (attempt: number) => backoffDelay(attempt, DEFAULT_BACKOFF, () => 0);
    const high = (attempt: number) => backoffDelay(attempt, DEFAULT_BACKOFF, () => 1);
    expect([0, 1, 2, 3, 4].map(low)).toEqual([500, 1000, 2000, 4000, 8000]);
    expect([0, 1, 2, 3, 4].map(high)).toEqual([1000, 2000, 4000, 8000, 16000]);
    expect(low(5)).toBe(15_000);
    expect(high(5)).toBe(30_000);
    expect(high(50)).toBe(30_000);
    expect(low(1000)).toBe(15_000);
  });

  it('stays within [capped/2, capped] for any random value', () => {
    for (const r of [0, 0.1, 0.5, 0.99]) {
      const delay = backoffDelay(2, { baseMs: 100, maxMs: 1000 }, () => r);
      expect(delay).toBeGreaterThanOrEqual(200);
      expect(delay).toBeLessThanOrEqual(400);
    }
  });
});

/** A streaming response whose body the test writes to. */
function streamResponse() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
  });
  const encoder = new TextEncoder();
  return {
    response: new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } }),
    write: (text: string) => controller.enqueue(encoder.encode(text)),
    close: () => controller.close(),
    fail: () => controller.error(new TypeError('network error')),
  };
}

function jsonResponse(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

interface Harness {
  messages: SseMessage[];
  states: StreamState[];
  requests: { url: string; headers: Record<string, string> }[];
  delays: number[];
  reopened: number;
}

/**
 * Runs a stream against scripted replies (one per attempt). Sleeping resolves at once and
 * records the delay, so the loop's timing is observable without real timers.
 */
function run(replies: Array<() => Response | Promise<Response>>, overrides: { token?: () => string | null; now?: () => number } = {}) {
  const h: Harness = { messages: [], states: [], requests: [], delays: [], reopened: 0 };
  let index = 0;
  const gate = { release: () => {} };
  const fetch = vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
    h.requests.push({ url: String(url), headers: { ...(init?.headers as Record<string, string>) } });
    const reply = replies[index++];
    if (!reply) {
      // Out of script: hang until stopped.
      return new Promise<Response>((_, reject) => {
        init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        gate.release();
      });
    }
    return reply();
  });
  const idle = new Promise<void>((resolve) => {
    gate.release = resolve;
  });
  const stream = startEventStream({
    url: '/api/events',
    headers: () => {
      const token = overrides.token ? overrides.token() : 'Bearer t';
      return token ? { 'X-Token': token } : null;
    },
    onMessage: (m) => h.messages.push(m),
    onState: (s) => h.states.push(s),
    onReopen: () => {
      h.reopened += 1;
    },
    fetch: fetch as unknown as typeof globalThis.fetch,
    random: () => 0,
    now: overrides.now ?? (() => 0),
    sleep: async (ms) => {
      h.delays.push(ms);
    },
  });
  return { h, stream, fetch, idle };
}

describe('startEventStream', () => {
  it('sends the token, reads events, and resumes with Last-Event-ID after a break', async () => {
    const first = streamResponse();
    const { h, stream, idle } = run([
      () => {
        setTimeout(() => {
          first.write('id: 10\ndata: {"a":1}\n\n');
          first.write('id: 11\ndata: {"a":2}\n\n');
          first.close();
        });
        return first.response;
      },
    ]);
    await idle;
    expect(h.messages.map((m) => [m.id, m.data])).toEqual([
      ['10', '{"a":1}'],
      ['11', '{"a":2}'],
    ]);
    expect(h.requests[0]?.url).toBe('/api/events');
    expect(h.requests[0]?.headers['X-Token']).toBe('Bearer t');
    expect(h.requests[0]?.headers.accept).toBe('text/event-stream');
    expect(h.requests[0]?.headers['last-event-id']).toBeUndefined();
    expect(h.requests[1]?.headers['last-event-id']).toBe('11');
    expect(stream.lastEventId).toBe('11');
    expect(h.states.slice(0, 4)).toEqual(['connecting', 'open', 'down', 'connecting']);
    stream.stop();
  });

  it('backs off exponentially while attempts fail, and starts over after a healthy connection', async () => {
    let clock = 0;
    const healthy = streamResponse();
    const { h, stream, idle } = run(
      [
        () => Promise.reject(new TypeError('offline')),
        () => new Response('busy', { status: 503 }),
        () => jsonResponse({ code: 5000, message: 'internal', data: null }, 500),
        () => {
          setTimeout(() => {
            clock += 60_000;
            healthy.close();
          });
          return healthy.response;
        },
        () => Promise.reject(new TypeError('offline')),
      ],
      { now: () => clock },
    );
    await idle;
    // Failures 0, 1, 2 wait 500, 1000, 2000 (random 0: half of base * 2^n); the healthy
    // connection resets the count, so its break waits 500 again, then 1000.
    expect(h.delays).toEqual([500, 1000, 2000, 500, 1000]);
    expect(h.reopened).toBe(0);
    stream.stop();
  });

  it('does not reset the backoff for a connection that closes at once', async () => {
    const replies = [0, 1, 2].map(() => () => {
      const s = streamResponse();
      queueMicrotask(() => s.close());
      return s.response;
    });
    const { h, stream, idle } = run(replies);
    await idle;
    expect(h.delays).toEqual([500, 1000, 2000]);
    // Each connection after the first opened again: the app refreshes what it may have missed.
    expect(h.reopened).toBe(2);
    stream.stop();
  });

  it('honours a longer retry the server asked for', async () => {
    const s = streamResponse();
    const { h, stream, idle } = run([
      () => {
        setTimeout(() => {
          s.write('retry: 7000\n\n');
          s.close();
        });
        return s.response;
      },
    ]);
    await idle;
    expect(h.delays).toEqual([7000]);
    stream.stop();
  });

  it('waits long before coming back when the server closed it for a newer stream (2011)', async () => {
    const s = streamResponse();
    const { h, stream, idle } = run([
      () => {
        setTimeout(() => {
          s.write('event: closed\ndata: {"code":2011,"message":"too many","data":null}\n\n');
          s.close();
        });
        return s.response;
      },
    ]);
    await idle;
    expect(h.delays).toEqual([EVICTED_RETRY_MS]);
    // The notice is the server's, not an app event.
    expect(h.messages).toEqual([]);
    stream.stop();
  });

  it('stops for good when the session is refused (2001 envelope or HTTP 401)', async () => {
    for (const reply of [() => jsonResponse({ code: 2001, message: 'sign in', data: null }), () => new Response('', { status: 401 })]) {
      const { h, fetch } = run([reply]);
      await vi.waitFor(() => expect(h.states.at(-1)).toBe('stopped'));
      expect(fetch).toHaveBeenCalledTimes(1);
      expect(h.delays).toEqual([]);
    }
  });

  it('does not connect without a token', async () => {
    const { h, fetch } = run([], { token: () => null });
    await vi.waitFor(() => expect(h.states).toEqual(['stopped']));
    expect(fetch).not.toHaveBeenCalled();
  });

  it('stop() ends an open connection and no attempt follows', async () => {
    const s = streamResponse();
    const { h, stream, fetch } = run([() => s.response]);
    await vi.waitFor(() => expect(h.states).toContain('open'));
    stream.stop();
    await vi.waitFor(() => expect(h.states.at(-1)).toBe('stopped'));
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(h.delays).toEqual([]);
  });

  it('treats a broken body as a break and reconnects', async () => {
    const s = streamResponse();
    const { h, stream, idle } = run([
      () => {
        setTimeout(() => {
          s.write('data: one\n\n');
          setTimeout(() => s.fail(), 5);
        });
        return s.response;
      },
    ]);
    await idle;
    expect(h.messages.map((m) => m.data)).toEqual(['one']);
    expect(h.requests).toHaveLength(2);
    stream.stop();
  });
});
