import type { AxiosAdapter, AxiosResponse, InternalAxiosRequestConfig } from 'axios';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('./notify', () => ({ toastDanger: vi.fn(), toastSuccess: vi.fn(), notifyDanger: vi.fn() }));
vi.mock('./navigation', () => ({ goToLogin: vi.fn(), registerNavigate: vi.fn() }));

class MemoryStorage {
  private items = new Map<string, string>();
  get length() {
    return this.items.size;
  }
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.items.set(key, String(value));
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
  clear() {
    this.items.clear();
  }
}

// The node test environment has no Web Storage; the client's storage helpers need both.
Object.assign(globalThis, { localStorage: new MemoryStorage(), sessionStorage: new MemoryStorage() });

const { API_BASE_URL, API_TIMEOUT_MS, apiClient, apiGet, apiPost } = await import('./api-client');
const { ApiError } = await import('@coffer/api-client/api-error');
const { goToLogin } = await import('./navigation');
const { notifyDanger, toastDanger } = await import('./notify');
const { STORAGE_KEYS } = await import('./storage');
await (await import('./i18n')).initI18n('en-US');

let seen: InternalAxiosRequestConfig[] = [];

/** Answers every request with `status` and `body`, recording the request. */
function reply(status: number, body: unknown, statusText = '') {
  const adapter: AxiosAdapter = async (config) => {
    seen.push(config);
    const response: AxiosResponse = { data: body, status, statusText, headers: {}, config };
    if (status >= 400) {
      const { AxiosError } = await import('axios');
      throw new AxiosError(`status ${status}`, 'ERR_BAD_RESPONSE', config, null, response);
    }
    return response;
  };
  apiClient.defaults.adapter = adapter;
}

beforeEach(() => {
  seen = [];
  localStorage.clear();
  sessionStorage.clear();
  vi.clearAllMocks();
});

afterEach(() => {
  apiClient.defaults.adapter = undefined;
});

describe('HTTP client (docs/product.md §5.2, §6)', () => {
  it('uses the same-origin base and a 60 s timeout', () => {
    expect(API_BASE_URL).toBe('/api');
    expect(API_TIMEOUT_MS).toBe(60_000);
    expect(apiClient.defaults.timeout).toBe(60_000);
  });

  it('sends the tunnel header, the stored token and the stored language', async () => {
    localStorage.setItem(STORAGE_KEYS.accessToken, 'Bearer abc');
    localStorage.setItem(STORAGE_KEYS.language, 'en-US');
    reply(200, { code: 0, message: 'ok', data: { uid: 1 } });
    expect(await apiGet('/getCurrentUser')).toEqual({ uid: 1 });
    const headers = seen[0]!.headers;
    expect(headers.get('ngrok-skip-browser-warning')).toBe('true');
    expect(headers.get('X-Token')).toBe('Bearer abc');
    expect(headers.get('accept-language')).toBe('en-US');
  });

  it('defaults accept-language to zh-CN and omits X-Token when signed out', async () => {
    reply(200, { code: 0, message: 'ok', data: null });
    await apiGet('/configs');
    expect(seen[0]!.headers.get('accept-language')).toBe('zh-CN');
    expect(seen[0]!.headers.has('X-Token')).toBe(false);
  });

  it('stores tokenHead + token from any reply that carries them', async () => {
    reply(200, { code: 0, message: 'ok', data: { token: 't0k', tokenHead: 'Bearer ' } });
    await apiPost('/login', { email: 'a@b.c', password: 'x' });
    expect(localStorage.getItem(STORAGE_KEYS.accessToken)).toBe('Bearer t0k');
  });

  it('rejects a business failure with its code and shows the server message', async () => {
    reply(200, { code: 2002, message: 'Wrong e-mail or password', data: null });
    const error = await apiPost('/login', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 2002, message: 'Wrong e-mail or password' });
    expect(toastDanger).toHaveBeenCalledWith('Wrong e-mail or password');
    expect(goToLogin).not.toHaveBeenCalled();
  });

  it('on code 2001 clears the token and session storage and goes to /login', async () => {
    localStorage.setItem(STORAGE_KEYS.accessToken, 'Bearer old');
    sessionStorage.setItem(STORAGE_KEYS.user, '{"uid":1}');
    reply(200, { code: 2001, message: 'Not signed in', data: null });
    await expect(apiGet('/getCurrentUser')).rejects.toMatchObject({ code: 2001 });
    expect(localStorage.getItem(STORAGE_KEYS.accessToken)).toBeNull();
    expect(sessionStorage.length).toBe(0);
    expect(goToLogin).toHaveBeenCalledTimes(1);
  });

  it('on HTTP 403 shows the message, or the status text, then rejects', async () => {
    reply(403, { message: 'Operators only' }, 'Forbidden');
    await expect(apiGet('/admin')).rejects.toThrow();
    expect(notifyDanger).toHaveBeenLastCalledWith('Operators only');
    reply(403, {}, 'Forbidden');
    await expect(apiGet('/admin')).rejects.toThrow();
    expect(notifyDanger).toHaveBeenLastCalledWith('Forbidden');
  });

  it('on HTTP 401 with result.isLogin shows the authorization notice, then rejects', async () => {
    reply(401, { result: { isLogin: true } }, 'Unauthorized');
    await expect(apiGet('/getCurrentUser')).rejects.toThrow();
    expect(notifyDanger).toHaveBeenCalledWith('Authorization verification failed');
  });
});
