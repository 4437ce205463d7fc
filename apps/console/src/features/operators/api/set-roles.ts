import type { OperatorRolesBody, OperatorRolesData } from '@coffer/contract/admin';
import { apiPost } from '../../../lib/api';

/** POST /api/admin/operators/{uid}/roles: the whole role set (empty: no longer an operator), with the reason. */
export const setOperatorRoles = (uid: number, body: OperatorRolesBody) => apiPost<OperatorRolesData>(`/admin/operators/${uid}/roles`, body);
