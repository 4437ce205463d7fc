import type { AdminUserDetail, TwoFactorResetBody } from '@coffer/contract/admin';
import { apiPost } from '../../../lib/api';

/** POST /api/admin/users/{uid}/two-factor-reset (open) or .../two-factor-reset/cancel, with the reason. */
export const twoFactorReset = (uid: number, action: 'open' | 'cancel', body: TwoFactorResetBody) =>
  apiPost<AdminUserDetail>(`/admin/users/${uid}/two-factor-reset${action === 'cancel' ? '/cancel' : ''}`, body);
