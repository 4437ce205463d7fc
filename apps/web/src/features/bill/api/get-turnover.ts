import type { TurnoverBody, TurnoverFilters, TurnoverPage } from '@coffer/contract/turnover';
import { apiPost } from '../../../lib/api-client';
import { PAGE_SIZE, usePaged } from '../hooks/use-paged';

/** POST /api/getTurnover: the statement, one line per posting, newest first. */
export function getTurnover(body: TurnoverBody): Promise<TurnoverPage> {
  return apiPost<TurnoverPage>('/getTurnover', body);
}

export function useTurnover(filters: TurnoverFilters) {
  return usePaged(['turnover', filters], (page) => getTurnover({ page, pageSize: PAGE_SIZE, ...filters }));
}
