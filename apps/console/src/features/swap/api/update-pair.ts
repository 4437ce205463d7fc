import type { SwapPairUpdateBody, SwapPairUpdateData } from '@coffer/contract/admin';
import { apiPost } from '../../../lib/api';

/** POST /api/admin/swap/pairs/{id}: the pair's whole setting with the reason (changed: false when already so). */
export const updateSwapPair = (id: number, body: SwapPairUpdateBody) => apiPost<SwapPairUpdateData>(`/admin/swap/pairs/${id}`, body);
