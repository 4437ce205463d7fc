import type { Envelope } from '@coffer/contract/envelope';
import { tokenStorage } from './storage';

/**
 * API answers that index.html's inline script asked for on a signed-in first open, before the
 * app's code had arrived (the page's GETs listed in app/route-data.ts; decision 057). Each is
 * handed out once, to the first GET of the same path, while fresh and for the same session;
 * anything else (an error envelope, no answer) goes through the HTTP client as usual.
 */
interface Early {
  /** performance.now() when the request was sent. */
  at: number;
  token: string;
  answer: Promise<Envelope<unknown> | null>;
}

declare global {
  interface Window {
    __cofferData?: Record<string, Early>;
  }
}

/** Older answers are asked again: the page has been open a while, its data may have moved. */
export const PREFETCH_MAX_AGE_MS = 15_000;

/** The early answer for `url` (`/currency/list`), at most once; undefined when there is none to use. */
export function takePrefetched(url: string): Promise<Envelope<unknown> | null> | undefined {
  const stash = typeof window === 'undefined' ? undefined : window.__cofferData;
  const early = stash?.[url];
  if (!stash || !early) return undefined;
  delete stash[url];
  if (performance.now() - early.at > PREFETCH_MAX_AGE_MS || early.token !== tokenStorage.get()) return undefined;
  return early.answer;
}
