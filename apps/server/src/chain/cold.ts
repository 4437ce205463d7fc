import { trimDecimal } from '@coffer/contract';
import { type Address, encodeFunctionData, erc20Abi, formatUnits, getAddress, type Hex, type LocalAccount, type PublicClient } from 'viem';
import type { Database } from '../db/client.ts';
import { syncNonce, takeNonce } from './nonces.ts';
import {
  broadcast,
  bumpedGasPrice,
  CHAIN_TX_COLUMNS,
  type ChainLog,
  type ChainTx,
  type ChainTxPurpose,
  type ChainTxRow,
  groupBy,
  hotCommitments,
  inTransaction,
  markAttempts,
  minedAttempt,
  noteBroadcast,
  receiptsOf,
  recordChainTx,
  signReplacement,
  silentChainLog,
  toBaseUnits,
  toChainTx,
} from './txs.ts';

export interface ColdWorkerOptions {
  database: Database;
  client: PublicClient;
  hot: LocalAccount;
  chainId: number;
  log?: ChainLog;
  /** replace a cold move not mined after this long (ms); default 60 000 */
  bumpAfterMs?: number;
}

export interface ColdTickResult {
  /** hot -> cold transactions signed and sent */
  sent: number;
  /** cold moves mined (or reverted) */
  mined: number;
  /** replacements at a higher gas price */
  bumped: number;
  /** below-floor alerts opened / closed */
  opened: number;
  closed: number;
}

interface ColdNetwork {
  id: number;
  code: string;
  native: boolean;
  contract: string | null;
  token_decimals: number;
  hot_ceiling: string | null;
  hot_floor: string | null;
  cold_address: string | null;
  gas_price_cap_wei: string | null;
  max_fee_bumps: number;
  /** queued and in-review withdrawals: what payouts will need (amount, currency unit) */
  queued: string;
}

const TRANSFER_GAS = 21_000n;
/** gas limit of a token transfer to the cold address (an ERC-20 transfer uses ~35-65k) */
const TOKEN_TRANSFER_GAS = 100_000n;
const COLD = 'cold' as ChainTxPurpose;

/**
 * The 'cold' worker (docs/decisions/038). Per network with a hot ceiling and a cold address:
 * when the hot wallet's balance minus what queued and in-flight payouts need is above the
 * ceiling, the excess goes to the cold address (watch-only: Coffer has no key for it), as a
 * hot-wallet transaction stored before it is broadcast (chain_txs purpose 'cold', the hot
 * nonce from takeNonce), its receipts read across every attempt, replaced at most
 * max_fee_bumps times and never above gas_price_cap_wei. One cold move per network at a time.
 * Per network with a floor: below it, one operator alert (hot_alerts) with the amount to
 * send, opened once per condition and closed when the wallet is back at or above the floor.
 */
export class ColdWorker {
  private readonly log: ChainLog;
  constructor(private readonly opts: ColdWorkerOptions) {
    this.log = opts.log ?? silentChainLog;
  }

  async tick(): Promise<ColdTickResult> {
    const result: ColdTickResult = { sent: 0, mined: 0, bumped: 0, opened: 0, closed: 0 };
    const networks = await this.networks();
    if (networks.length === 0) return result;
    const open = await this.followOpenMoves(networks, result);
    const hot = getAddress(this.opts.hot.address);
    const commitments = await hotCommitments(this.opts.database, this.opts.chainId, hot);
    for (const n of networks) {
      const balance = await this.balanceOf(n, hot);
      const committed = n.native ? commitments.native : (commitments.tokens.get(n.id) ?? 0n);
      const free = balance - committed - toBaseUnits(n.queued, n.token_decimals);
      await this.floorAlert(n, free, result);
      if (n.hot_ceiling === null || n.cold_address === null || open.has(n.id)) continue;
      const excess = free - toBaseUnits(n.hot_ceiling, n.token_decimals);
      if (excess > 0n && (await this.sendToCold(n, excess))) result.sent++;
    }
    return result;
  }

  private async networks(): Promise<ColdNetwork[]> {
    return this.opts.database.sql.query<ColdNetwork>(
      `select n.id, c.code, n.native, n.contract, n.token_decimals, n.hot_ceiling::text as hot_ceiling, n.hot_floor::text as hot_floor,
              n.cold_address, n.gas_price_cap_wei::text as gas_price_cap_wei, n.max_fee_bumps,
              (select coalesce(sum(w.amount), 0)::text from withdrawals w where w.network_id = n.id and w.status in ('review', 'queued')) as queued
       from networks n join currencies c on c.id = n.currency_id
       where n.chain_id = $1 and (n.native or n.contract is not null)
         and ((n.hot_ceiling is not null and n.cold_address is not null) or n.hot_floor is not null)
       order by n.id`,
      [this.opts.chainId],
    );
  }

  private balanceOf(n: ColdNetwork, address: Address): Promise<bigint> {
    const { client } = this.opts;
    if (n.native || !n.contract) return client.getBalance({ address, blockTag: 'latest' });
    return client.readContract({ address: getAddress(n.contract), abi: erc20Abi, functionName: 'balanceOf', args: [address] });
  }

  /** Opens the below-floor alert once per condition, closes it when the wallet is back above. */
  private async floorAlert(n: ColdNetwork, free: bigint, result: ColdTickResult): Promise<void> {
    if (n.hot_floor === null) return;
    const floor = toBaseUnits(n.hot_floor, n.token_decimals);
    const db = this.opts.database.sql;
    if (free >= floor) {
      const closed = await db.query(
        `update hot_alerts set closed_at = now() where network_id = $1 and kind = 'below_floor' and closed_at is null returning id`,
        [n.id],
      );
      result.closed += closed.length;
      return;
    }
    const short = trimDecimal(formatUnits(floor - free, n.token_decimals));
    const opened = await db.query(
      `insert into hot_alerts (network_id, kind, detail, amount)
       select $1, 'below_floor', $2, $3::numeric
       where not exists (select 1 from hot_alerts where network_id = $1 and kind = 'below_floor' and closed_at is null)
       returning id`,
      [n.id, `hot wallet below its floor ${trimDecimal(n.hot_floor)} ${n.code}: send at least ${short} ${n.code} to it`, short],
    );
    if (opened.length > 0) this.log.warn({ network: n.id, code: n.code, short }, 'hot wallet below its floor: operator alerted');
    result.opened += opened.length;
  }

  /** Signs, stores and broadcasts a move of `excess` (base units) to the cold address; false when fees are above the cap. */
  private async sendToCold(n: ColdNetwork, excess: bigint): Promise<boolean> {
    const { client, database, chainId, hot } = this.opts;
    const gasPrice = await client.getGasPrice();
    if (n.gas_price_cap_wei !== null && gasPrice > BigInt(n.gas_price_cap_wei)) return false;
    const cold = getAddress(n.cold_address as string);
    // a native move leaves the gas it pays in the hot wallet, so the wallet lands on the ceiling
    const value = n.native ? excess - TRANSFER_GAS * gasPrice : 0n;
    if (n.native && value <= 0n) return false;
    await syncNonce(database, client, chainId, hot.address);
    const hash = await inTransaction(database, async (q) => {
      const nonce = await takeNonce(q, chainId, hot.address);
      const raw = await hot.signTransaction({
        type: 'legacy',
        chainId,
        nonce,
        gasPrice,
        ...(n.native
          ? { to: cold, value, gas: TRANSFER_GAS }
          : {
              to: getAddress(n.contract as string),
              data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [cold, excess] }),
              gas: TOKEN_TRANSFER_GAS,
            }),
      });
      const h = await recordChainTx(q, { chainId, purpose: COLD, from: hot.address, nonce, raw, gasPrice, sentHead: null });
      await q('update chain_txs set network_id = $2 where chain_id = $1 and tx_hash = $3', [chainId, n.id, h]);
      return { h, raw };
    });
    const sent = await broadcast(client, hash.raw);
    this.log.info({ network: n.id, code: n.code, excess: excess.toString(), hash: hash.h, outcome: sent.outcome }, 'excess sent to cold');
    return true;
  }

  /** Receipts of every open cold move across its attempts; bounded replacements. Returns the networks still moving. */
  private async followOpenMoves(networks: ColdNetwork[], result: ColdTickResult): Promise<Set<number>> {
    const { database, client, chainId } = this.opts;
    const rows = await database.sql.query<ChainTxRow & { network_id: number }>(
      `select ${CHAIN_TX_COLUMNS}, t.network_id from chain_txs t
       where t.chain_id = $1 and t.purpose = 'cold' and t.nonce in (select nonce from chain_txs where chain_id = $1 and purpose = 'cold' and status = 'sent')
       order by t.id`,
      [chainId],
    );
    const netOf = new Map(rows.map((r) => [Number(r.id), Number(r.network_id)]));
    const open = new Set<number>();
    for (const attempts of groupBy(rows.map(toChainTx), (t) => t.nonce).values()) {
      const receipts = await receiptsOf(client, attempts);
      const mined = minedAttempt(attempts, receipts);
      const networkId = netOf.get(attempts[0]?.id ?? 0) ?? 0;
      if (mined) {
        const outcome = mined.receipt.status === 'success' ? 'mined' : 'reverted';
        await inTransaction(database, (q) =>
          markAttempts(
            q,
            attempts.map((a) => a.id),
            mined.attempt.id,
            outcome,
            mined.receipt.blockNumber,
          ),
        );
        result.mined++;
        continue;
      }
      open.add(networkId);
      const network = networks.find((n) => n.id === networkId);
      if (await this.bumpOrResend(attempts, network)) result.bumped++;
    }
    return open;
  }

  private async bumpOrResend(attempts: ChainTx[], n: ColdNetwork | undefined): Promise<boolean> {
    const { client, database, chainId, hot } = this.opts;
    const last = attempts[attempts.length - 1] as ChainTx;
    const bumpAfter = this.opts.bumpAfterMs ?? 60_000;
    const bumps = attempts.length - 1;
    const cap = n?.gas_price_cap_wei ? BigInt(n.gas_price_cap_wei) : undefined;
    if (last.ageMs >= bumpAfter && n && bumps < n.max_fee_bumps) {
      const price = bumpedGasPrice(last.gasPrice, await client.getGasPrice());
      if (cap === undefined || price <= cap) {
        const raw = await signReplacement(hot, last, price, chainId);
        await inTransaction(database, async (q) => {
          const h = await recordChainTx(q, {
            chainId,
            purpose: COLD,
            from: hot.address,
            nonce: last.nonce,
            raw,
            gasPrice: price,
            sentHead: null,
          });
          await q('update chain_txs set network_id = $2 where chain_id = $1 and tx_hash = $3', [chainId, n.id, h]);
        });
        await broadcast(client, raw);
        return true;
      }
    }
    await noteBroadcast(database, last.id, await broadcast(client, last.raw as Hex));
    return false;
  }
}
