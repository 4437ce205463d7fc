import type { Envelope } from '@coffer/contract/envelope';
import { useEffect, useState } from 'react';
import { API_BASE_URL } from './api-base';
import { reportAnswered } from './connectivity';
import { DEFAULT_LANGUAGE } from './language';
import { local, STORAGE_KEYS } from './storage';

/**
 * GET of a public endpoint without the HTTP client (lib/api-client.ts): for the signed-out
 * landing page's widgets (the public rates, the banners), which must not bring axios, its
 * interceptors and the toasts before the page is interactive (decision 032). No session and
 * no toast: a widget that cannot load shows its own empty state. Resolves the envelope's
 * data; rejects on a non-zero code, an answer that is not an envelope, or no answer.
 */
export async function publicGet<T>(path: string, signal?: AbortSignal): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`${API_BASE_URL}${path}`, {
      headers: {
        accept: 'application/json',
        'accept-language': local.get(STORAGE_KEYS.language) ?? DEFAULT_LANGUAGE,
        // As api-client.ts: ngrok serves an HTML interstitial to browsers without it.
        'ngrok-skip-browser-warning': 'true',
      },
      signal,
    });
  } catch (error) {
    // No answer at all (not a cancel): the offline banner shows until one comes.
    if (!signal?.aborted) reportAnswered(false);
    throw error;
  }
  reportAnswered(true);
  const body: unknown = await response.json();
  if (typeof body !== 'object' || body === null || (body as Envelope<T>).code !== 0) {
    throw new Error(`GET ${path}: no success envelope (HTTP ${response.status})`);
  }
  return (body as Envelope<T>).data;
}

export type PublicData<T> = { state: 'pending' } | { state: 'ready'; data: T } | { state: 'failed' };

/** After a failed fetch, the one try that does not wait for the browser to come back online. */
export const PUBLIC_RETRY_MS = 5_000;

/**
 * `path`'s data through publicGet, fetched on mount and again when `path` or `variant` (e.g.
 * the language the answer is written in) changes. A failed fetch is tried again once after
 * PUBLIC_RETRY_MS (a server restarting, a flaky network) and whenever the browser comes back
 * online, as TanStack Query's retry and refetch on reconnect would.
 */
export function usePublicData<T>(path: string, variant = ''): PublicData<T> {
  const key = `${path}\n${variant}`;
  const [result, setResult] = useState<{ key: string; value: PublicData<T> }>({ key, value: { state: 'pending' } });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    const retry = () => setAttempt((n) => n + 1);
    let timer: ReturnType<typeof setTimeout> | undefined;
    publicGet<T>(path, controller.signal).then(
      (data) => {
        if (!controller.signal.aborted) setResult({ key, value: { state: 'ready', data } });
      },
      () => {
        if (controller.signal.aborted) return;
        setResult({ key, value: { state: 'failed' } });
        window.addEventListener('online', retry, { once: true });
        if (attempt === 0) timer = setTimeout(retry, PUBLIC_RETRY_MS);
      },
    );
    return () => {
      controller.abort();
      clearTimeout(timer);
      window.removeEventListener('online', retry);
    };
  }, [key, path, attempt]);
  return result.key === key ? result.value : { state: 'pending' };
}
