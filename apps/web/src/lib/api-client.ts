import { type Envelope, isEnvelope, refusalOf, sessionTokenOf } from '@coffer/api-client/envelope';
import { ErrorCode } from '@coffer/contract/errors';
import axios, { type AxiosError, type AxiosRequestConfig } from 'axios';
import { API_BASE_URL } from './api-base';
import { reportAnswered } from './connectivity';
import { i18n } from './i18n';
import { DEFAULT_LANGUAGE } from './language';
import { goToLogin } from './navigation';
import { notifyDanger, toastDanger } from './notify';
import { earlyAdapter, takePrefetched } from './prefetched';
import { clearSession } from './session';
import { local, STORAGE_KEYS, tokenStorage } from './storage';

/** Spec §7 and §9: one same-origin base (lib/api-base.ts, shared with lib/public-get.ts), 60 s timeout. */
export { API_BASE_URL };
export const API_TIMEOUT_MS = 60_000;

declare module 'axios' {
  interface AxiosRequestConfig {
    /**
     * Refusals the calling form shows next to the field they concern (decision 021),
     * so the HTTP layer does not also pop them up.
     */
    fieldCodes?: readonly number[];
  }
}

export const apiClient = axios.create({ baseURL: API_BASE_URL, timeout: API_TIMEOUT_MS });

apiClient.interceptors.request.use((config) => {
  // ngrok serves an HTML interstitial to browsers unless this header is present.
  config.headers.set('ngrok-skip-browser-warning', 'true');
  const token = tokenStorage.get();
  if (token) config.headers.set('X-Token', token);
  config.headers.set('accept-language', local.get(STORAGE_KEYS.language) ?? DEFAULT_LANGUAGE);
  return config;
});

/** Any answer carrying a session (sign-in, second factor, password change) replaces the stored one. */
function storeTokenFrom(data: unknown) {
  const token = sessionTokenOf(data);
  if (token) tokenStorage.set(token);
}

/** Session gone (code 2001): forget it locally and send the user to sign in. */
function onSessionInvalid() {
  clearSession();
  goToLogin();
}

apiClient.interceptors.response.use(
  (response) => {
    reportAnswered(true);
    const body: unknown = response.data;
    if (!isEnvelope(body)) return response;
    storeTokenFrom(body.data);
    if (body.code !== ErrorCode.OK) {
      if (!response.config.fieldCodes?.includes(body.code)) toastDanger(body.message);
      if (body.code === ErrorCode.NOT_SIGNED_IN) onSessionInvalid();
      return Promise.reject(refusalOf(body, response.status));
    }
    // Unwrapped: callers receive the envelope itself, not the axios response.
    response.data = body;
    return response;
  },
  (error: AxiosError<{ message?: string; result?: { isLogin?: boolean } }>) => {
    const response = error.response;
    // No answer at all (not a cancel): the offline banner shows until one comes.
    if (error.code !== 'ERR_CANCELED') reportAnswered(response !== undefined);
    if (response?.status === 403) {
      notifyDanger(response.data?.message || response.statusText || i18n.t('errors.unexpected'));
    } else if (response?.status === 401 && response.data?.result?.isLogin) {
      notifyDanger(i18n.t('errors.authFailed'));
    } else if (response && isEnvelope(response.data)) {
      // Faults (5xx, 404, 413, 429) still carry an envelope with a safe message.
      toastDanger(response.data.message);
    } else if (error.code === 'ECONNABORTED' || error.code === 'ETIMEDOUT') {
      toastDanger(i18n.t('errors.timeout'));
    } else if (error.code !== 'ERR_CANCELED') {
      toastDanger(i18n.t('errors.network'));
    }
    return Promise.reject(error);
  },
);

/** GET returning the envelope's data. */
export async function apiGet<T>(url: string, params?: Record<string, unknown>, config?: AxiosRequestConfig) {
  // A signed-in first open may have asked for it already (lib/prefetched.ts): its answer goes
  // through the interceptors like any other.
  const early = params === undefined ? takePrefetched(url) : undefined;
  if (early) config = { ...config, adapter: earlyAdapter(early, apiClient.defaults.adapter) };
  const response = await apiClient.get<Envelope<T>>(url, { ...config, params });
  return response.data.data;
}

/** POST returning the envelope's data. */
export async function apiPost<T>(url: string, body?: unknown, config?: AxiosRequestConfig) {
  const response = await apiClient.post<Envelope<T>>(url, body, config);
  return response.data.data;
}
