import { type Address, getAddress, type LocalAccount, type PublicClient } from 'viem';
import type { Database } from '../db/client.ts';
import { loadFeePolicies } from './fee-policy.ts';
import type { HdWallet } from './keys.ts';
import type { SweepStatus } from './state-machines.ts';
import {
  type AfterCommit,
  emptySweeperResult,
  HookAbort,
  note,
  type Sweep,
  type SweepContext,
  type SweeperTickResult,
} from './sweep-context.ts';
import { discoverSweeps } from './sweep-discover.ts';
import { followSweep, sendSweep } from './sweep-send.ts';
import { followTopup, requestGas } from './sweep-topup.ts';
import {
  CHAIN_TX_COLUMNS,
  type ChainLog,
  type ChainTx,
  type ChainTxRow,
  errorText,
  groupBy,
  receiptsOf,
  silentChainLog,
  toChainTx,
} from './txs.ts';

export type { SweeperTickResult } from './sweep-context.ts';

export interface SweeperOptions {
  database: Database;
  /** viem public client on the chain, with cacheTime 0 */
  client: PublicClient;
  wallet: HdWallet;
  chainId: number;
  log?: ChainLog;
  /**
   * Per currency code, the smallest balance worth sweeping (decimal string, e.g.
   * `{ USDT: '10', ETH: '0.01' }`). Unset: any token balance above zero; for ETH anything
   * above the 21 000 gas the sweep costs.
   */
  minSweep?: Readonly<Record<string, string>>;
  /** replace a gas top-up or an ETH sweep not mined after this long (ms); default 30 000 */
  bumpAfterMs?: number;
  /** lowers every network's gas_price_cap_wei (wei) further; the caps are read from the networks rows each tick */
  maxFeeWei?: bigint;
  /** a sweep whose transaction reverted this many times is given up ('failed'); default 5 */
  maxAttempts?: number;
  /** Test hook: after a sweep or top-up is committed, before it is broadcast (throw = crash). */
  afterCommit?: AfterCommit;
}

interface SweepRow {
  id: number | string;
  network_id: number;
  deposit_address: string;
  address_index: number;
  status: SweepStatus;
  attempts: number;
  topup_rounds: number;
  gas_limit: string | null;
  gas_price: string | null;
  nonce: string | null;
  native: boolean;
  contract: string | null;
  code: string;
}

const toSweep = (r: SweepRow): Sweep => ({
  id: Number(r.id),
  networkId: r.network_id,
  address: getAddress(r.deposit_address),
  index: r.address_index,
  status: r.status,
  attempts: r.attempts,
  topupRounds: r.topup_rounds,
  gasLimit: r.gas_limit === null ? null : BigInt(r.gas_limit),
  gasPrice: r.gas_price === null ? null : BigInt(r.gas_price),
  nonce: r.nonce === null ? null : Number(r.nonce),
  native: r.native,
  contract: r.contract === null ? null : getAddress(r.contract),
  code: r.code,
});

/** Per sweep, the attempts that share the nonce of its newest attempt (earlier rounds are over). */
function latestRound(groups: Map<number, ChainTx[]>): Map<number, ChainTx[]> {
  for (const [id, list] of groups) {
    const last = list[list.length - 1] as ChainTx;
    groups.set(
      id,
      list.filter((a) => a.nonce === last.nonce && a.from.toLowerCase() === last.from.toLowerCase()),
    );
  }
  return groups;
}

/**
 * Moves credited deposits from the deposit addresses to the hot wallet (custody only: the
 * ledger does not change; docs/decisions/037 has the sweep's state machine). Per network and
 * deposit address: ETH is swept by one legacy transaction of balance - 21 000 x gasPrice (no
 * dust left); a token first gets exactly gasLimit x gasPrice of ETH from the hot wallet
 * ('gas_topup', nonce from chain_nonces like the withdrawals; sweep-topup.ts) and then sends
 * its whole balance at that price (sweep-send.ts). One open sweep per address at a time.
 * Every transaction is stored in chain_txs before it is broadcast.
 */
export class Sweeper {
  private readonly opts: SweeperOptions;
  private readonly hot: LocalAccount;

  constructor(opts: SweeperOptions) {
    this.opts = opts;
    this.hot = opts.wallet.hotAccount();
  }

  /**
   * One pass: look at deposit addresses with new credits (balance read once per new credit),
   * open sweeps for those worth it, then move every open sweep one step (top up gas, sign and
   * send, follow receipts, retry). Idle (no new credit, no open sweep) it makes no RPC call.
   */
  async tick(): Promise<SweeperTickResult> {
    const { database, client, wallet, chainId } = this.opts;
    let price: Promise<bigint> | undefined;
    const ctx: SweepContext = {
      database,
      client,
      wallet,
      hot: this.hot,
      chainId,
      log: this.opts.log ?? silentChainLog,
      bumpAfterMs: this.opts.bumpAfterMs ?? 30_000,
      maxAttempts: this.opts.maxAttempts ?? 5,
      policies: await loadFeePolicies(database, chainId, this.opts.maxFeeWei),
      nodePrice: () => {
        price ??= client.getGasPrice();
        return price;
      },
      afterCommit: this.opts.afterCommit,
      result: emptySweeperResult(),
    };
    const open = await this.openSweeps();
    const busy = new Set(open.map((s) => s.address.toLowerCase()));
    const created = await discoverSweeps(ctx, busy, this.opts.minSweep ?? {});
    const fresh = created.length > 0 ? await this.openSweeps(created) : [];
    await this.advance(ctx, [...open, ...fresh]);
    return ctx.result;
  }

  private async openSweeps(ids?: number[]): Promise<Sweep[]> {
    const rows = await this.opts.database.sql.query<SweepRow>(
      `select s.id, s.network_id, s.deposit_address, s.address_index, s.status, s.attempts, s.topup_rounds,
              s.gas_limit::text as gas_limit, s.gas_price::text as gas_price, s.nonce::text as nonce, n.native, n.contract, c.code
       from sweeps s join networks n on n.id = s.network_id join currencies c on c.id = n.currency_id
       where n.chain_id = $1 and s.status not in ('done', 'failed') order by s.id`,
      [this.opts.chainId],
    );
    return rows.filter((r) => !ids || ids.includes(Number(r.id))).map(toSweep);
  }

  /** The attempts of the sweeps in flight (latest round each), the senders' nonce counts, then their receipts. */
  private async chainView(ctx: SweepContext, sweeps: Sweep[]) {
    const attemptRows = await ctx.database.sql.query<ChainTxRow>(
      `select ${CHAIN_TX_COLUMNS} from chain_txs t join sweeps s on s.id = t.sweep_id join networks n on n.id = s.network_id
       where t.chain_id = $1 and n.chain_id = $1 and s.status in ('waiting_for_gas', 'sent') order by t.id`,
      [ctx.chainId],
    );
    const attempts = attemptRows.map(toChainTx);
    const ofPurpose = (p: string) =>
      latestRound(
        groupBy(
          attempts.filter((a) => a.purpose === p),
          (a) => a.sweepId,
        ),
      );
    const topups = ofPurpose('gas_topup');
    const sends = ofPurpose('sweep');
    const watched = sweeps.filter((s) => s.status === 'waiting_for_gas' || s.status === 'sent');
    // nonce counts first, receipts after: a transaction mined in between is seen by the receipts
    const counts = new Map<string, number>();
    const senders = [...new Set(watched.map((s) => (s.status === 'waiting_for_gas' ? this.hot.address : s.address).toLowerCase()))];
    const got = await Promise.all(senders.map((a) => ctx.client.getTransactionCount({ address: getAddress(a) })));
    for (const [i, a] of senders.entries()) counts.set(a, got[i] as number);
    const followed = watched.flatMap((s) => (s.status === 'waiting_for_gas' ? (topups.get(s.id) ?? []) : (sends.get(s.id) ?? [])));
    const receipts = followed.length > 0 ? await receiptsOf(ctx.client, followed) : new Map();
    const count = (a: Address) => counts.get(a.toLowerCase()) ?? 0;
    return { topups, sends, receipts, count };
  }

  private async advance(ctx: SweepContext, sweeps: Sweep[]): Promise<void> {
    if (sweeps.length === 0) return;
    const view = await this.chainView(ctx, sweeps);
    for (const s of sweeps) {
      try {
        if (s.status === 'waiting_for_gas') {
          if ((await followTopup(ctx, s, view.topups.get(s.id) ?? [], view.receipts, view.count(this.hot.address))) !== 'ready') continue;
          s.status = 'ready';
        }
        if (s.status === 'sent') {
          await followSweep(ctx, s, view.sends.get(s.id) ?? [], view.receipts, view.count(s.address));
          continue;
        }
        if (s.status === 'gas_required') {
          if ((await requestGas(ctx, s)) !== 'ready') continue;
          s.status = 'ready';
        }
        if (s.status === 'ready') await sendSweep(ctx, s);
      } catch (err) {
        if (err instanceof HookAbort) throw err.original;
        const error = errorText(err);
        ctx.log.warn({ sweep: s.id, error }, 'sweep step failed; retrying next tick');
        await note(ctx, s, error);
      }
    }
  }
}
