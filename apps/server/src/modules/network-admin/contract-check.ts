import { ErrorCode } from '@coffer/contract';
import type { PublicClient } from 'viem';
import { normalizeEvmAddress } from '../../chain/evm.ts';
import { readTokenDecimals } from '../../chain/token-decimals.ts';
import { BizError } from '../../core/errors.ts';

/** The chains a network change can be checked on: a client per chain id this process reaches. */
export type ChainClients = (chainId: number) => PublicClient | undefined;

/**
 * A token contract must answer decimals() on its own chain with the network's token decimals
 * (3030 otherwise, saying what it answered): a wrong contract or a wrong scale would credit
 * deposits and pay withdrawals off by powers of ten. Answers the address in its checksummed form.
 */
export async function checkTokenContract(clients: ChainClients, chainId: number, contract: string, tokenDecimals: number): Promise<string> {
  const address = normalizeEvmAddress(contract);
  if (!address) throw new BizError(ErrorCode.NETWORK_SETTING_INVALID, 'contract');
  const client = clients(chainId);
  if (!client) {
    throw new BizError(ErrorCode.TOKEN_CONTRACT_UNVERIFIED, {
      'zh-CN': `本服务未连接链 ${chainId}，无法校验`,
      'en-US': `this server is not connected to chain ${chainId} to check it`,
    });
  }
  const answered = await readTokenDecimals(client, address);
  if (answered === null) {
    throw new BizError(ErrorCode.TOKEN_CONTRACT_UNVERIFIED, {
      'zh-CN': `${address} 未应答 decimals()`,
      'en-US': `${address} does not answer decimals()`,
    });
  }
  if (answered !== tokenDecimals) {
    throw new BizError(ErrorCode.TOKEN_CONTRACT_UNVERIFIED, {
      'zh-CN': `合约精度为 ${answered}，设置为 ${tokenDecimals}`,
      'en-US': `the contract answers ${answered} decimals, the setting says ${tokenDecimals}`,
    });
  }
  return address;
}
