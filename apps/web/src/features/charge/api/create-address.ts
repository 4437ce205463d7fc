import type { CreateAddressBody, DepositAddress } from '@coffer/contract/chain';
import { apiPost } from '../../../lib/api-client';

/** POST /api/deposit/createAddress: the user's address on a network, allocated once (same answer every time). */
export function createAddress(body: CreateAddressBody): Promise<DepositAddress> {
  return apiPost<DepositAddress>('/deposit/createAddress', body);
}
