import { type AxiosAdapter, AxiosError, type AxiosResponse, getAdapter } from 'axios';
import { tokenStorage } from './storage';

/**
 * API answers that index.html's inline script asked for on a signed-in first open, before the
 * app's code had arrived (the page's GETs listed in app/route-data.ts; decision 057). Each is
 * handed out once, to the first GET of the same path, while fresh and for the same session,
 * as that request's answer (earlyAdapter): the client's interceptors treat it as any other, a
 * refusal included. A request that got no answer is sent again.
 */
export interface EarlyAnswer {
  status: number;
  statusText: string;
  body: unknown;
}

interface Early {
  /** performance.now() when the request was sent. */
  at: number;
  token: string;
  answer: Promise<EarlyAnswer | null>;
}

declare global {
  interface Window {
    __cofferData?: Record<string, Early>;
  }
}

/** Older answers are asked again: the page has been open a while, its data may have moved. */
export const PREFETCH_MAX_AGE_MS = 15_000;

/** The early answer for `url` (`/currency/list`), at most once; undefined when there is none to use. */
export function takePrefetched(url: string): Promise<EarlyAnswer | null> | undefined {
  const stash = typeof window === 'undefined' ? undefined : window.__cofferData;
  const early = stash?.[url];
  if (!stash || !early) return undefined;
  delete stash[url];
  if (performance.now() - early.at > PREFETCH_MAX_AGE_MS || early.token !== tokenStorage.get()) return undefined;
  return early.answer;
}

/** An axios adapter answering with the early answer, or sending the request when there was none. */
export function earlyAdapter(early: Promise<EarlyAnswer | null>, fallback: Parameters<typeof getAdapter>[0]): AxiosAdapter {
  return async (config) => {
    const answer = await early;
    if (!answer) return getAdapter(fallback ?? ['xhr', 'http', 'fetch'])(config);
    const response: AxiosResponse = { data: answer.body, status: answer.status, statusText: answer.statusText, headers: {}, config };
    if (!config.validateStatus || config.validateStatus(response.status)) return response;
    const code = response.status >= 500 ? AxiosError.ERR_BAD_RESPONSE : AxiosError.ERR_BAD_REQUEST;
    throw new AxiosError(`Request failed with status code ${response.status}`, code, config, null, response);
  };
}
