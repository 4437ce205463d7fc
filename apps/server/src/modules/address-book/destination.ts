import { ErrorCode } from '@coffer/contract';
import { BizError } from '../../core/errors.ts';
import type { Database } from '../../db/client.ts';
import { normalizeUtxoAddress, utxoAddressProblem } from '../../chain/utxo/address.ts';
import { type UtxoParams, utxoParamsByChainId } from '../../chain/utxo/params.ts';
import type { NetworkRow } from '../networks/index.ts';

/** What the withdrawal module needs of the chain layer: address rules of the network's family. */
export interface AddressRules {
  /** The canonical (checksummed) form, or null when the address is not valid. */
  normalizeAddress(address: string): string | null;
  /** Addresses Coffer itself pays from (refused as destinations). */
  isOwnHotWallet(address: string): boolean;
  /** The zero address, precompiles and well-known burn addresses (chain/unspendable.ts). */
  isUnspendable(address: string): boolean;
}

/** Why a destination cannot be paid, in the order they are judged. */
export type DestinationProblem = 'invalid' | 'own_hot_wallet' | 'unspendable' | 'contract' | 'other_network' | 'other_family';

/** True when `address` is the token contract of a network Coffer knows on the same chain. */
export async function isKnownContract(database: Database, chainId: number, address: string): Promise<boolean> {
  const rows = await database.sql.query('select 1 from networks where chain_id = $1 and lower(contract) = lower($2) limit 1', [
    chainId,
    address,
  ]);
  return rows.length > 0;
}

/**
 * Judges a typed destination on a network: the canonical address, or why it cannot be paid.
 * A token contract (of this or another network on the chain) keeps whatever is sent to it,
 * like the zero address: both are unspendable for the user.
 */
export async function judgeDestination(
  database: Database,
  rules: AddressRules,
  net: Pick<NetworkRow, 'chainId'>,
  raw: string,
): Promise<{ address: string | null; problem: DestinationProblem | null }> {
  const utxo = utxoParamsByChainId(net.chainId);
  if (utxo) return judgeUtxoDestination(database, utxo, net.chainId, raw);
  const address = rules.normalizeAddress(raw);
  if (!address) return { address: null, problem: 'invalid' };
  if (rules.isOwnHotWallet(address)) return { address, problem: 'own_hot_wallet' };
  if (rules.isUnspendable(address)) return { address, problem: 'unspendable' };
  if (await isKnownContract(database, net.chainId, address)) return { address, problem: 'contract' };
  return { address, problem: null };
}

/**
 * A UTXO network's destination: a valid address of this network (bech32/bech32m, base58
 * P2PKH/P2SH), and none of Coffer's own deposit addresses on it (paying one would come back
 * as a deposit). Why another one is refused: 'other_network' (a bc1 address for Litecoin),
 * 'other_family' (an 0x address), 'invalid' otherwise.
 */
async function judgeUtxoDestination(
  database: Database,
  params: UtxoParams,
  chainId: number,
  raw: string,
): Promise<{ address: string | null; problem: DestinationProblem | null }> {
  const problem = utxoAddressProblem(raw, params);
  if (problem === 'other-network') return { address: null, problem: 'other_network' };
  if (problem === 'other-family') return { address: null, problem: 'other_family' };
  const address = problem ? null : normalizeUtxoAddress(raw, params);
  if (!address) return { address: null, problem: 'invalid' };
  const own = await database.sql.query('select 1 from deposit_addresses where chain_id = $1 and address = $2 limit 1', [chainId, address]);
  return { address, problem: own.length > 0 ? 'own_hot_wallet' : null };
}

/** The canonical destination, or 3008 (not an address, our hot wallet) / 3013 (burns funds). */
export async function payableDestination(
  database: Database,
  rules: AddressRules,
  net: Pick<NetworkRow, 'chainId'>,
  raw: string,
): Promise<string> {
  const { address, problem } = await judgeDestination(database, rules, net, raw);
  if (problem === 'other_network') throw new BizError(ErrorCode.ADDRESS_OTHER_NETWORK);
  if (problem === 'other_family') throw new BizError(ErrorCode.ADDRESS_OTHER_FAMILY);
  if (!address || problem === 'invalid' || problem === 'own_hot_wallet') throw new BizError(ErrorCode.INVALID_ADDRESS);
  if (problem) throw new BizError(ErrorCode.UNSPENDABLE_ADDRESS);
  return address;
}
