import { dataOf, type Envelope, isEnvelope } from './envelope.ts';
import { idempotencyHeaders } from './idempotency.ts';

/** Query parameters: empty, null and undefined values are left out. */
export type Query = Record<string, string | number | boolean | undefined | null>;

/** What differs between the front ends; the envelope, refusals and keys are the client's. */
export interface ClientSettings {
  /** Where every path starts (`/api`, docs/product.md §5.1). */
  baseUrl: string;
  /** Aborts a call that has not answered by then (docs/product.md §5.2). */
  timeoutMs: number;
  /** Headers of every call, read when it is sent: the session token, the language. */
  headers: () => Record<string, string>;
  /**
   * Sees every envelope answered, before a refusal is thrown, with the headers the call was
   * sent with (so a front end can tell an answer for a session it has since left).
   */
  onEnvelope?: (envelope: Envelope<unknown>, sent: Readonly<Record<string, string>>) => void;
  /** The fetch to use (the global one when left out). */
  fetch?: typeof fetch;
}

export interface PostOptions {
  /** A money-moving POST's key (docs/product.md §5.9): the same key for a retry of one submit. */
  idempotencyKey?: string;
  headers?: Record<string, string>;
}

export interface ApiClient {
  get<T>(path: string, query?: Query): Promise<T>;
  post<T>(path: string, body?: unknown, options?: PostOptions): Promise<T>;
  /** A multipart POST (the browser sets its content type with the boundary). */
  upload<T>(path: string, form: FormData): Promise<T>;
}

export function urlOf(baseUrl: string, path: string, query?: Query): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const search = params.toString();
  return `${baseUrl}${path}${search ? `?${search}` : ''}`;
}

/**
 * A client on fetch resolving each call to its envelope's data and rejecting a refusal, or an
 * answer that is no envelope, as ApiError (a call with no answer rejects with fetch's error).
 */
export function createApiClient(settings: ClientSettings): ApiClient {
  async function request<T>(method: 'GET' | 'POST', url: string, body: BodyInit | undefined, extra: Record<string, string>) {
    const headers = { ...settings.headers(), ...extra };
    const send = settings.fetch ?? fetch;
    const response = await send(url, { method, headers, body, signal: AbortSignal.timeout(settings.timeoutMs) });
    const answer: unknown = await response.json().catch(() => null);
    if (isEnvelope(answer)) settings.onEnvelope?.(answer, headers);
    return dataOf<T>(answer, response.status, response.statusText);
  }
  return {
    get: (path, query) => request('GET', urlOf(settings.baseUrl, path, query), undefined, {}),
    post: (path, body, options = {}) =>
      request('POST', urlOf(settings.baseUrl, path), JSON.stringify(body ?? {}), {
        'content-type': 'application/json',
        ...options.headers,
        ...(options.idempotencyKey === undefined ? {} : idempotencyHeaders(options.idempotencyKey)),
      }),
    upload: (path, form) => request('POST', urlOf(settings.baseUrl, path), form, {}),
  };
}
