import type { LedgerAuditRunData } from '@coffer/contract/admin';
import { api } from './api';
import { queryKeys } from './query-keys';
import { useWrite, type WriteUi } from './use-write';

/** POST /api/admin/ledger/audit/run: runs every check now and keeps the result (the dashboard and the ledger page both offer it). */
export const runAudit = () => api.post<LedgerAuditRunData>('/admin/ledger/audit/run');

/** The run's report is the page's to show: no "Saved" message. */
export function useRunAudit(ui?: WriteUi<void, LedgerAuditRunData>) {
  return useWrite(runAudit, { invalidate: [queryKeys.dashboard] }, { success: null, ...ui });
}
