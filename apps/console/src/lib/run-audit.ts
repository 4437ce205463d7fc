import type { LedgerAuditRunData } from '@coffer/contract/admin';
import { apiPost } from './api';

/** POST /api/admin/ledger/audit/run: runs every check now and keeps the result. */
export const runAudit = () => apiPost<LedgerAuditRunData>('/admin/ledger/audit/run');
