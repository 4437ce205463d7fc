import type { AdminSwapPair, SwapPairUpdateBody } from '@coffer/contract/admin';
import { apiPost } from '../../../lib/api';

/** POST /api/admin/swap/pairs/{id}: the pair's whole setting with the reason. */
export const updateSwapPair = (id: number, body: SwapPairUpdateBody) => apiPost<AdminSwapPair>(`/admin/swap/pairs/${id}`, body);
