import type { Network } from '@coffer/contract';
import { ErrorCode } from '@coffer/contract';
import { BizError } from '../../core/errors.ts';
import type { Database } from '../../db/client.ts';
import { formatAmount } from '../../ledger/amounts.ts';

/** A network row as the chain code needs it (amounts as exact decimal strings). */
export interface NetworkRow extends Network {
  reviewThreshold: string | null;
}

interface RawNetwork {
  id: number;
  currency_id: number;
  code: string;
  name: string;
  family: 'evm' | 'utxo';
  chain_id: number;
  contract: string | null;
  token_decimals: number;
  confirmations: number;
  block_seconds: number;
  min_deposit: string;
  withdraw_fee: string;
  min_withdraw: string;
  max_withdraw: string;
  daily_withdraw_limit: string;
  review_threshold: string | null;
  deposit_enabled: boolean;
  withdraw_enabled: boolean;
  explorer_url: string | null;
  explorer_tx_url: string | null;
  frozen: boolean;
}

const SELECT_NETWORKS = `
  select n.id, n.currency_id, c.code, n.name, n.family, n.chain_id, n.contract, n.token_decimals, n.confirmations, n.block_seconds,
         n.min_deposit::text, n.withdraw_fee::text, n.min_withdraw::text, n.max_withdraw::text,
         n.daily_withdraw_limit::text, n.review_threshold::text, n.deposit_enabled and c.enabled as deposit_enabled,
         n.withdraw_enabled and c.enabled as withdraw_enabled, chain_payouts_frozen(n.id) as frozen,
         n.explorer_url, n.explorer_tx_url
  from networks n join currencies c on c.id = n.currency_id`;

function toNetwork(r: RawNetwork): NetworkRow {
  return {
    id: r.id,
    currencyId: r.currency_id,
    code: r.code,
    name: r.name,
    family: r.family,
    chainId: r.chain_id,
    contract: r.contract,
    tokenDecimals: r.token_decimals,
    confirmations: r.confirmations,
    blockSeconds: r.block_seconds,
    minDeposit: formatAmount(r.min_deposit),
    withdrawFee: formatAmount(r.withdraw_fee),
    minWithdraw: formatAmount(r.min_withdraw),
    maxWithdraw: formatAmount(r.max_withdraw),
    dailyWithdrawLimit: formatAmount(r.daily_withdraw_limit),
    reviewThreshold: r.review_threshold === null ? null : formatAmount(r.review_threshold),
    depositEnabled: r.deposit_enabled,
    withdrawEnabled: r.withdraw_enabled,
    payoutsFrozen: r.frozen,
    explorerUrl: r.explorer_url,
    explorerTxUrl: r.explorer_tx_url,
  };
}

/** Every network, in display order. `chainIds` limits them to the chains this server serves. */
export async function listNetworks(database: Database, chainIds?: readonly number[]): Promise<NetworkRow[]> {
  const rows = chainIds
    ? await database.sql.query<RawNetwork>(`${SELECT_NETWORKS} where n.chain_id = any($1::int[]) order by n.sort, n.id`, [chainIds])
    : await database.sql.query<RawNetwork>(`${SELECT_NETWORKS} order by n.sort, n.id`);
  return rows.map(toNetwork);
}

/** One network, checked against the currency the request names (3003 otherwise). */
export async function networkFor(database: Database, networkId: number, currencyId?: number): Promise<NetworkRow> {
  const [row] = await database.sql.query<RawNetwork>(`${SELECT_NETWORKS} where n.id = $1`, [networkId]);
  if (!row || (currencyId !== undefined && row.currency_id !== currencyId)) {
    throw new BizError(ErrorCode.CURRENCY_UNAVAILABLE, 'networkId');
  }
  return toNetwork(row);
}
