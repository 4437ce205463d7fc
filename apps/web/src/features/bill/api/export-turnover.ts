import type { TurnoverFilters } from '@coffer/contract/turnover';
import { API_BASE_URL } from '../../../lib/api-client';
import { DEFAULT_LANGUAGE } from '../../../lib/language';
import { toastDanger } from '../../../lib/notify';
import { local, STORAGE_KEYS, tokenStorage } from '../../../lib/storage';

function filenameOf(disposition: string | null): string {
  const match = disposition && /filename="?([^";]+)"?/i.exec(disposition);
  return match?.[1] ?? 'coffer-statement.csv';
}

/**
 * GET /api/turnover/export.csv with the same filters as the list. A plain link cannot carry
 * the X-Token header, so the file is fetched and handed to the browser as a blob.
 * Returns the file name, or null when the server refused (its message is shown).
 */
export async function exportTurnover(filters: TurnoverFilters): Promise<string | null> {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) if (value !== undefined) query.set(key, String(value));
  const headers: Record<string, string> = {
    'accept-language': local.get(STORAGE_KEYS.language) ?? DEFAULT_LANGUAGE,
    'ngrok-skip-browser-warning': 'true',
  };
  const token = tokenStorage.get();
  if (token) headers['X-Token'] = token;

  const response = await fetch(`${API_BASE_URL}/turnover/export.csv?${query}`, { headers });
  const type = response.headers.get('content-type') ?? '';
  if (!response.ok || type.includes('application/json')) {
    // Refusals (2001, 1001, ...) answer the JSON envelope.
    const body = (await response.json().catch(() => null)) as { message?: string } | null;
    toastDanger(body?.message || response.statusText);
    return null;
  }
  const blob = await response.blob();
  const name = filenameOf(response.headers.get('content-disposition'));
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return name;
}
