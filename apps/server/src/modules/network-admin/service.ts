import {
  type AdminNetwork,
  ErrorCode,
  LOCAL_CHAIN_IDS,
  type NetworkUpdateBody,
  type NetworkUpdateData,
  trimDecimal,
} from '@coffer/contract';
import { normalizeEvmAddress } from '../../chain/evm.ts';
import { BizError, notFound } from '../../core/errors.ts';
import type { Database } from '../../db/client.ts';
import { sqlState } from '../../ledger/sql-errors.ts';
import { type ChainClients, checkTokenContract } from './contract-check.ts';

/** Who acts, as the audit trail keeps it (an operator's e-mail, or "cli:<os user>"). */
export interface NetworkActor {
  actorUserId: number | null;
  actor: string;
}

/** What a change is checked against besides the database: the chains reached, the hot wallet. */
export interface NetworkChangeContext {
  clients: ChainClients;
  servedChainIds: readonly number[];
  /** The hot wallet's address: a cold address must not be it (3029). */
  hotAddress: string;
}

interface RawNetwork {
  id: number;
  currency_id: number;
  code: string;
  name: string;
  family: AdminNetwork['family'];
  chain_id: number;
  native: boolean;
  amount_decimals: number;
  contract: string | null;
  token_decimals: number;
  confirmations: number;
  min_deposit: string;
  withdraw_fee: string;
  min_withdraw: string;
  max_withdraw: string;
  daily_withdraw_limit: string;
  review_threshold: string | null;
  deposit_enabled: boolean;
  withdraw_enabled: boolean;
  gas_price_cap_wei: string | null;
  max_fee_bumps: number;
  fee_margin_percent: number;
  hot_ceiling: string | null;
  hot_floor: string | null;
  cold_address: string | null;
  second_approval_above: string | null;
  explorer_url: string | null;
  explorer_tx_url: string | null;
  frozen: boolean;
}

// The row as the operator set it (deposit_enabled without the currency's switch, unlike the
// public list), straight from the table: nothing here is cached, so neither is anything else.
const SELECT = `
  select n.id, n.currency_id, c.code, n.name, n.family, n.chain_id, n.native, least(c.decimals, n.token_decimals) as amount_decimals,
         n.contract, n.token_decimals, n.confirmations, n.min_deposit::text, n.withdraw_fee::text, n.min_withdraw::text,
         n.max_withdraw::text, n.daily_withdraw_limit::text, n.review_threshold::text, n.deposit_enabled, n.withdraw_enabled,
         n.gas_price_cap_wei::text, n.max_fee_bumps, n.fee_margin_percent, n.hot_ceiling::text, n.hot_floor::text,
         n.cold_address, n.second_approval_above::text, n.explorer_url, n.explorer_tx_url, chain_payouts_frozen(n.id) as frozen
    from networks n join currencies c on c.id = n.currency_id`;

const orNull = (v: string | null) => (v === null ? null : trimDecimal(v));

function toAdminNetwork(r: RawNetwork, served: readonly number[]): AdminNetwork {
  return {
    id: r.id,
    currencyId: r.currency_id,
    code: r.code,
    name: r.name,
    family: r.family,
    chainId: r.chain_id,
    native: r.native,
    local: LOCAL_CHAIN_IDS.includes(r.chain_id),
    served: served.includes(r.chain_id),
    amountDecimals: r.amount_decimals,
    contract: r.contract,
    tokenDecimals: r.token_decimals,
    confirmations: r.confirmations,
    minDeposit: trimDecimal(r.min_deposit),
    withdrawFee: trimDecimal(r.withdraw_fee),
    minWithdraw: trimDecimal(r.min_withdraw),
    maxWithdraw: trimDecimal(r.max_withdraw),
    dailyWithdrawLimit: trimDecimal(r.daily_withdraw_limit),
    reviewThreshold: orNull(r.review_threshold),
    depositEnabled: r.deposit_enabled,
    withdrawEnabled: r.withdraw_enabled,
    gasPriceCapWei: r.gas_price_cap_wei,
    maxFeeBumps: r.max_fee_bumps,
    feeMarginPercent: r.fee_margin_percent,
    hotCeiling: orNull(r.hot_ceiling),
    hotFloor: orNull(r.hot_floor),
    coldAddress: r.cold_address,
    secondApprovalAbove: orNull(r.second_approval_above),
    explorerUrl: r.explorer_url,
    explorerTxUrl: r.explorer_tx_url,
    payoutsFrozen: r.frozen,
  };
}

/** Every network with every setting, in display order. */
export async function listAdminNetworks(database: Database, served: readonly number[]): Promise<AdminNetwork[]> {
  const rows = await database.sql.query<RawNetwork>(`${SELECT} order by n.sort, n.id`);
  return rows.map((r) => toAdminNetwork(r, served));
}

async function oneNetwork(database: Database, id: number, served: readonly number[]): Promise<AdminNetwork> {
  const [row] = await database.sql.query<RawNetwork>(`${SELECT} where n.id = $1`, [id]);
  if (!row) throw notFound();
  return toAdminNetwork(row, served);
}

/** SQLSTATEs of coffer_network_set (drizzle/0038) as business errors, naming the setting. */
function rethrowNetworkError(e: unknown): never {
  const state = sqlState(e);
  const field = /network setting invalid: (\w+)/.exec(String((e as { cause?: Error }).cause?.message ?? (e as Error).message))?.[1];
  if (state === 'CB404') throw notFound();
  if (state === '22023') throw new BizError(ErrorCode.INVALID_PARAMS, 'reason');
  if (state === 'CN027') throw new BizError(ErrorCode.NETWORK_SETTING_INVALID, field);
  if (state === 'CN028') throw new BizError(ErrorCode.GAS_PRICE_CAP_REQUIRED);
  if (state === 'CN029') throw new BizError(ErrorCode.COLD_ADDRESS_NOT_COLD);
  throw e;
}

/**
 * Changes a network's settings through coffer_network_set (checks, update and audit row in
 * one statement). A token contract named in the change, or kept while the decimals change, is
 * first asked for decimals() on its chain (3030). The watcher, the payout workers and every
 * request read networks afresh, so the change is in effect at their next tick or request.
 */
export async function updateNetwork(
  database: Database,
  ctx: NetworkChangeContext,
  by: NetworkActor,
  networkId: number,
  body: NetworkUpdateBody,
): Promise<NetworkUpdateData> {
  const before = await oneNetwork(database, networkId, ctx.servedChainIds);
  const changes = { ...body.changes };
  const contract = changes.contract === undefined ? before.contract : changes.contract;
  const decimals = changes.tokenDecimals ?? before.tokenDecimals;
  // Decimals outside 0-36 are the SQL function's refusal (3027), not a question for the chain.
  const askChain = changes.contract !== undefined || (changes.tokenDecimals !== undefined && decimals >= 0 && decimals <= 36);
  if (contract !== null && !before.native && askChain) {
    changes.contract = await checkTokenContract(ctx.clients, before.chainId, contract, decimals);
  }
  if (changes.coldAddress) changes.coldAddress = normalizeEvmAddress(changes.coldAddress) ?? changes.coldAddress;
  let changed = false;
  try {
    const [row] = await database.sql.query<{ changed: boolean }>('select coffer_network_set($1, $2::jsonb, $3, $4, $5, $6) as changed', [
      networkId,
      JSON.stringify(changes),
      ctx.hotAddress,
      by.actorUserId,
      by.actor,
      body.reason,
    ]);
    changed = row?.changed === true;
  } catch (e) {
    rethrowNetworkError(e);
  }
  return { ...(await oneNetwork(database, networkId, ctx.servedChainIds)), changed };
}
