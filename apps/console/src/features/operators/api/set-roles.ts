import type { OperatorRolesBody, OperatorRolesData } from '@coffer/contract/admin';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';
import { useWrite, type WriteUi } from '../../../lib/use-write';

export type RolesChange = OperatorRolesBody & { uid: number };

/** POST /api/admin/operators/{uid}/roles: the whole role set (empty: no longer an operator), with the reason. */
export const setOperatorRoles = ({ uid, roles, reason }: RolesChange) =>
  api.post<OperatorRolesData>(`/admin/operators/${uid}/roles`, { roles, reason });

export function useSetOperatorRoles(ui?: WriteUi<RolesChange, OperatorRolesData>) {
  return useWrite(setOperatorRoles, { invalidate: [queryKeys.operators] }, ui);
}
