import {
  type Address,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  type LocalAccount,
  type PublicClient,
  parseTransaction,
  parseUnits,
  type TransactionReceipt,
} from 'viem';
import type { Database } from '../db/client.ts';
import type { HdWallet } from './keys.ts';
import { syncNonce, takeNonce } from './nonces.ts';
import {
  broadcast,
  bumpedGasPrice,
  CHAIN_TX_COLUMNS,
  type ChainLog,
  type ChainTx,
  type ChainTxRow,
  cappedGasPrice,
  errorText,
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
  toChainTx,
} from './txs.ts';

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
  /** above this gas price (wei) nothing new is signed */
  maxFeeWei?: bigint;
  /** a sweep whose transaction reverted this many times is given up ('failed'); default 5 */
  maxAttempts?: number;
  /** Test hook: after a sweep or top-up is committed, before it is broadcast (throw = crash). */
  afterCommit?: (info: { sweepId: number; purpose: 'sweep' | 'gas_topup'; txHash: string }) => void | Promise<void>;
}

export interface SweeperTickResult {
  /** deposit addresses whose balance was read after a new credit */
  checked: number;
  /** sweeps created */
  created: number;
  /** gas top-ups signed and sent (hot wallet -> deposit address) */
  toppedUp: number;
  /** sweep transactions signed and sent (deposit address -> hot wallet) */
  sent: number;
  /** sweeps mined (done) */
  done: number;
  /** reverted sweeps retried (or top-ups lost) */
  retried: number;
  /** sweeps given up */
  failed: number;
  /** stored transactions sent again */
  resent: number;
  /** replacements at a higher gas price */
  bumped: number;
}

type SweepStatus = 'gas_required' | 'waiting_for_gas' | 'ready' | 'sent' | 'done' | 'failed';

interface SweepRow {
  id: number | string;
  network_id: number;
  deposit_address: string;
  address_index: number;
  amount: string;
  status: SweepStatus;
  attempts: number;
  gas_limit: string | null;
  gas_price: string | null;
  nonce: string | null;
  native: boolean;
  contract: string | null;
  token_decimals: number;
  code: string;
}

interface Sweep {
  id: number;
  networkId: number;
  address: Address;
  index: number;
  status: SweepStatus;
  attempts: number;
  gasLimit: bigint | null;
  gasPrice: bigint | null;
  nonce: number | null;
  native: boolean;
  contract: Address | null;
  code: string;
}

interface CandidateRow {
  network_id: number;
  address: string;
  address_index: number;
  credited: number;
  native: boolean;
  contract: string | null;
  token_decimals: number;
  code: string;
}

const TRANSFER_GAS = 21_000n;

/** Per sweep, the attempts that share the nonce of its newest attempt. */
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

/** An exception of the afterCommit test hook: a simulated crash, never swallowed by the retry logic. */
class HookAbort extends Error {
  constructor(readonly original: unknown) {
    super('afterCommit hook aborted the tick');
  }
}

/**
 * Moves credited deposits from the deposit addresses to the hot wallet (custody only: the
 * ledger does not change; DESIGN §7, OpenCEX's sweep state machine). Per network and deposit
 * address: ETH is swept by one legacy transaction of balance - 21 000 x gasPrice (no dust
 * left); a token first gets exactly gasLimit x gasPrice of ETH from the hot wallet
 * ('gas_topup', nonce from chain_nonces like the withdrawals) and then sends its whole
 * balance at that price. One open sweep per address at a time. Every transaction is stored in
 * chain_txs before it is broadcast; the deposit watcher ignores the top-ups by their hash.
 */
export class Sweeper {
  private readonly database: Database;
  private readonly client: PublicClient;
  private readonly wallet: HdWallet;
  private readonly hot: LocalAccount;
  private readonly chainId: number;
  private readonly log: ChainLog;
  private readonly minSweep: Readonly<Record<string, string>>;
  private readonly bumpAfterMs: number;
  private readonly maxFeeWei: bigint | undefined;
  private readonly maxAttempts: number;
  private readonly afterCommit: SweeperOptions['afterCommit'];

  constructor(opts: SweeperOptions) {
    this.database = opts.database;
    this.client = opts.client;
    this.wallet = opts.wallet;
    this.hot = opts.wallet.hotAccount();
    this.chainId = opts.chainId;
    this.log = opts.log ?? silentChainLog;
    this.minSweep = opts.minSweep ?? {};
    this.bumpAfterMs = opts.bumpAfterMs ?? 30_000;
    this.maxFeeWei = opts.maxFeeWei;
    this.maxAttempts = opts.maxAttempts ?? 5;
    this.afterCommit = opts.afterCommit;
  }

  /**
   * One pass: look at deposit addresses with new credits (balance read once per new credit),
   * open sweeps for those worth it, then move every open sweep one step (top up gas, sign and
   * send, follow receipts, retry). Idle (no new credit, no open sweep) it makes no RPC call.
   */
  async tick(): Promise<SweeperTickResult> {
    const result: SweeperTickResult = {
      checked: 0,
      created: 0,
      toppedUp: 0,
      sent: 0,
      done: 0,
      retried: 0,
      failed: 0,
      resent: 0,
      bumped: 0,
    };
    const open = await this.openSweeps();
    const created = await this.discover(new Set(open.map((s) => s.address.toLowerCase())), result);
    await this.advance([...open, ...created], result);
    return result;
  }

  private async openSweeps(ids?: number[]): Promise<Sweep[]> {
    const rows = await this.database.sql.query<SweepRow>(
      `select s.id, s.network_id, s.deposit_address, s.address_index, s.amount::text as amount, s.status, s.attempts,
              s.gas_limit::text as gas_limit, s.gas_price::text as gas_price, s.nonce::text as nonce,
              n.native, n.contract, n.token_decimals, c.code
       from sweeps s join networks n on n.id = s.network_id join currencies c on c.id = n.currency_id
       where n.chain_id = $1 and s.status not in ('done', 'failed') order by s.id`,
      [this.chainId],
    );
    return rows
      .filter((r) => !ids || ids.includes(Number(r.id)))
      .map((r) => ({
        id: Number(r.id),
        networkId: r.network_id,
        address: getAddress(r.deposit_address),
        index: r.address_index,
        status: r.status,
        attempts: r.attempts,
        gasLimit: r.gas_limit === null ? null : BigInt(r.gas_limit),
        gasPrice: r.gas_price === null ? null : BigInt(r.gas_price),
        nonce: r.nonce === null ? null : Number(r.nonce),
        native: r.native,
        contract: r.contract === null ? null : getAddress(r.contract),
        code: r.code,
      }));
  }

  // ---- new credits -> sweeps -----------------------------------------------------------------

  private async discover(busy: Set<string>, result: SweeperTickResult): Promise<Sweep[]> {
    const candidates = await this.database.sql.query<CandidateRow>(
      `select d.network_id, da.address, da.address_index, count(*)::int as credited,
              n.native, n.contract, n.token_decimals, c.code
       from deposits d
       join networks n on n.id = d.network_id
       join currencies c on c.id = n.currency_id
       join deposit_addresses da on da.chain_id = n.chain_id and lower(da.address) = lower(d.address)
       left join sweep_checks sc on sc.network_id = d.network_id and sc.address = da.address
       where n.chain_id = $1 and d.entry_id is not null and (n.native or n.contract is not null)
       group by d.network_id, da.address, da.address_index, n.native, n.contract, n.token_decimals, c.code, sc.credited_count
       having count(*) > coalesce(sc.credited_count, 0)
       order by n.native, da.address_index, d.network_id`,
      [this.chainId],
    );
    const free = candidates.filter((c) => !busy.has(c.address.toLowerCase()));
    if (free.length === 0) return [];
    const [gas, ...balances] = await Promise.all([
      this.client.getGasPrice(),
      ...free.map((c) =>
        c.native
          ? this.client.getBalance({ address: getAddress(c.address) })
          : this.client.readContract({
              address: getAddress(c.contract as string),
              abi: erc20Abi,
              functionName: 'balanceOf',
              args: [getAddress(c.address)],
            }),
      ),
    ]);
    const created: number[] = [];
    for (const [i, c] of free.entries()) {
      if (busy.has(c.address.toLowerCase())) continue; // a sweep of another asset was just opened here
      result.checked++;
      const balance = balances[i] as bigint;
      const min = parseUnits(this.minSweep[c.code] ?? '0', c.token_decimals);
      const worth = c.native ? balance > TRANSFER_GAS * gas && balance >= min : balance > 0n && balance >= min;
      const id = await inTransaction(this.database, async (q) => {
        let sweepId: number | null = null;
        if (worth) {
          const [row] = await q<{ id: number | string }>(
            `insert into sweeps (network_id, deposit_address, address_index, amount, status) values ($1, $2, $3, $4::numeric, $5) returning id`,
            [c.network_id, getAddress(c.address), c.address_index, balance.toString(), c.native ? 'ready' : 'gas_required'],
          );
          sweepId = Number(row?.id);
        }
        await q(
          `insert into sweep_checks (network_id, address, credited_count) values ($1, $2, $3)
           on conflict (network_id, address) do update set credited_count = excluded.credited_count, checked_at = now()`,
          [c.network_id, c.address, c.credited],
        );
        return sweepId;
      });
      if (id !== null) {
        busy.add(c.address.toLowerCase());
        created.push(id);
        result.created++;
        this.log.info({ sweep: id, network: c.network_id, address: c.address, amount: balance.toString() }, 'sweep opened');
      }
    }
    return created.length > 0 ? this.openSweeps(created) : [];
  }

  // ---- open sweeps ---------------------------------------------------------------------------

  private async advance(sweeps: Sweep[], result: SweeperTickResult): Promise<void> {
    if (sweeps.length === 0) return;
    const attemptRows = await this.database.sql.query<ChainTxRow>(
      `select ${CHAIN_TX_COLUMNS} from chain_txs t join sweeps s on s.id = t.sweep_id join networks n on n.id = s.network_id
       where t.chain_id = $1 and n.chain_id = $1 and s.status in ('waiting_for_gas', 'sent') order by t.id`,
      [this.chainId],
    );
    const attempts = attemptRows.map(toChainTx);
    // a sweep may have had earlier rounds (a reverted sweep, a lost top-up): only the attempts
    // of the latest round's nonce are followed
    const topups = latestRound(
      groupBy(
        attempts.filter((a) => a.purpose === 'gas_topup'),
        (a) => a.sweepId,
      ),
    );
    const sends = latestRound(
      groupBy(
        attempts.filter((a) => a.purpose === 'sweep'),
        (a) => a.sweepId,
      ),
    );
    const watched = sweeps.filter((s) => s.status === 'waiting_for_gas' || s.status === 'sent');
    // nonce counts first, receipts after: a transaction mined in between is seen by the receipts
    const counts = new Map<string, number>();
    if (watched.length > 0) {
      const senders = [...new Set(watched.map((s) => (s.status === 'waiting_for_gas' ? this.hot.address : s.address).toLowerCase()))];
      const got = await Promise.all(senders.map((a) => this.client.getTransactionCount({ address: getAddress(a) })));
      for (const [i, a] of senders.entries()) counts.set(a, got[i] as number);
    }
    const followed = watched.flatMap((s) => (s.status === 'waiting_for_gas' ? (topups.get(s.id) ?? []) : (sends.get(s.id) ?? [])));
    const receipts = followed.length > 0 ? await receiptsOf(this.client, followed) : new Map();

    let gasPrice: Promise<{ price: bigint; capped: boolean }> | undefined;
    const price = () => {
      gasPrice ??= cappedGasPrice(this.client, this.maxFeeWei);
      return gasPrice;
    };

    for (const s of sweeps) {
      try {
        if (s.status === 'waiting_for_gas') {
          const list = topups.get(s.id) ?? [];
          const next = await this.followTopup(s, list, receipts, counts.get(this.hot.address.toLowerCase()) ?? 0, price, result);
          if (next !== 'ready') continue;
          s.status = 'ready';
        }
        if (s.status === 'sent') {
          await this.followSweep(s, sends.get(s.id) ?? [], receipts, counts.get(s.address.toLowerCase()) ?? 0, price, result);
          continue;
        }
        if (s.status === 'gas_required') {
          const next = await this.requestGas(s, price, result);
          if (next !== 'ready') continue;
          s.status = 'ready';
        }
        if (s.status === 'ready') await this.sendSweep(s, price, result);
      } catch (err) {
        if (err instanceof HookAbort) throw err.original;
        const error = errorText(err);
        this.log.warn({ sweep: s.id, error }, 'sweep step failed; retrying next tick');
        await this.database.sql.query('update sweeps set last_error = $2, updated_at = now() where id = $1', [s.id, error]);
      }
    }
  }

  /** gas_required: price the token transfer and top the address up (or use the ETH it has). */
  private async requestGas(
    s: Sweep,
    price: () => Promise<{ price: bigint; capped: boolean }>,
    result: SweeperTickResult,
  ): Promise<'ready' | 'waiting_for_gas' | 'done' | null> {
    const contract = s.contract as Address;
    const [tokens, eth, gas] = await Promise.all([
      this.client.readContract({ address: contract, abi: erc20Abi, functionName: 'balanceOf', args: [s.address] }),
      this.client.getBalance({ address: s.address }),
      price(),
    ]);
    if (tokens === 0n) {
      await this.finish(s, 'done', 'nothing left to sweep');
      result.done++;
      return 'done';
    }
    if (gas.capped) {
      await this.note(s, `gas price ${gas.price} above the cap`);
      return null;
    }
    const data = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [this.hot.address, tokens] });
    const estimate = await this.client.estimateGas({ account: s.address, to: contract, data });
    const gasLimit = (estimate * 11n + 9n) / 10n; // +10%: state may differ a little when it runs
    const need = gasLimit * gas.price;
    if (eth >= need) {
      await this.database.sql.query(
        `update sweeps set status = 'ready', gas_limit = $2::numeric, gas_price = $3::numeric, amount = $4::numeric, updated_at = now()
         where id = $1 and status = 'gas_required'`,
        [s.id, gasLimit.toString(), gas.price.toString(), tokens.toString()],
      );
      s.gasLimit = gasLimit;
      s.gasPrice = gas.price;
      return 'ready';
    }

    const hot = this.hot.address;
    const [hotBalance, committed, head] = await Promise.all([
      this.client.getBalance({ address: hot }),
      hotCommitments(this.database, this.chainId, hot),
      this.client.getBlockNumber(),
      syncNonce(this.database, this.client, this.chainId, hot),
    ]);
    if (hotBalance - committed.native < need + TRANSFER_GAS * gas.price) {
      await this.note(s, 'hot wallet has not enough ETH for the gas top-up');
      this.log.warn({ sweep: s.id }, 'hot wallet has not enough ETH for a gas top-up: sweep waits');
      return null;
    }
    const signed = await inTransaction(this.database, async (q) => {
      const [row] = await q<{ status: string }>('select status from sweeps where id = $1 for update skip locked', [s.id]);
      if (row?.status !== 'gas_required') return null;
      const nonce = await takeNonce(q, this.chainId, hot);
      // the hint lets a separate signer derive the deposit address itself (docs/decisions/039-separate-signer.md)
      const raw = await this.wallet.hotAccount({ purpose: 'gas_topup', depositIndex: s.index }).signTransaction({
        type: 'legacy',
        chainId: this.chainId,
        nonce,
        to: s.address,
        value: need,
        gas: TRANSFER_GAS,
        gasPrice: gas.price,
      });
      const hash = await recordChainTx(q, {
        chainId: this.chainId,
        purpose: 'gas_topup',
        sweepId: s.id,
        from: hot,
        nonce,
        raw,
        gasPrice: gas.price,
        sentHead: head,
      });
      await q(
        `update sweeps set status = 'waiting_for_gas', gas_tx_hash = $2, gas_limit = $3::numeric, gas_price = $4::numeric,
                amount = $5::numeric, updated_at = now() where id = $1`,
        [s.id, hash, gasLimit.toString(), gas.price.toString(), tokens.toString()],
      );
      return { raw, hash };
    });
    if (!signed) return null;
    result.toppedUp++;
    this.log.info({ sweep: s.id, address: s.address, value: need.toString(), txHash: signed.hash }, 'gas top-up sent');
    await this.hook({ sweepId: s.id, purpose: 'gas_topup', txHash: signed.hash });
    await this.send(signed.hash, signed.raw, s);
    return 'waiting_for_gas';
  }

  /** waiting_for_gas: the top-up mined -> ready; lost or reverted -> gas_required; else re-send / replace it. */
  private async followTopup(
    s: Sweep,
    attempts: ChainTx[],
    receipts: Map<string, TransactionReceipt | null>,
    hotCount: number,
    price: () => Promise<{ price: bigint; capped: boolean }>,
    result: SweeperTickResult,
  ): Promise<'ready' | null> {
    const mined = minedAttempt(attempts, receipts as Map<`0x${string}`, TransactionReceipt | null>);
    if (mined) {
      const ok = mined.receipt.status === 'success';
      await inTransaction(this.database, async (q) => {
        await markAttempts(
          q,
          attempts.map((a) => a.id),
          mined.attempt.id,
          ok ? 'mined' : 'reverted',
          mined.receipt.blockNumber,
        );
        await q(
          ok
            ? `update sweeps set status = 'ready', gas_tx_hash = $2, updated_at = now() where id = $1 and status = 'waiting_for_gas'`
            : `update sweeps set status = 'gas_required', attempts = attempts + 1, last_error = 'gas top-up reverted', updated_at = now()
               where id = $1 and status = 'waiting_for_gas'`,
          [s.id, mined.attempt.hash],
        );
      });
      if (!ok) result.retried++;
      return ok ? 'ready' : null;
    }
    const latest = attempts[attempts.length - 1];
    if (!latest) return null;
    if (hotCount > latest.nonce) {
      // the hot wallet's nonce went by without any of our top-ups: top up again
      await inTransaction(this.database, async (q) => {
        for (const a of attempts) await q(`update chain_txs set status = 'replaced' where id = $1`, [a.id]);
        await q(
          `update sweeps set status = 'gas_required', attempts = attempts + 1, last_error = 'gas top-up nonce used by another transaction',
                  updated_at = now() where id = $1 and status = 'waiting_for_gas'`,
          [s.id],
        );
      });
      result.retried++;
      return null;
    }
    if (latest.ageMs >= this.bumpAfterMs) {
      const gas = await price();
      let newPrice = bumpedGasPrice(latest.gasPrice, gas.price);
      if (this.maxFeeWei !== undefined && newPrice > this.maxFeeWei) newPrice = this.maxFeeWei;
      if (newPrice >= bumpedGasPrice(latest.gasPrice, 0n)) {
        const raw = await signReplacement(
          this.wallet.hotAccount({ purpose: 'gas_topup', depositIndex: s.index }),
          latest,
          newPrice,
          this.chainId,
        );
        const hash = await inTransaction(this.database, async (q) => {
          const [row] = await q<{ status: string; gas_tx_hash: string | null }>(
            'select status, gas_tx_hash from sweeps where id = $1 for update',
            [s.id],
          );
          if (row?.status !== 'waiting_for_gas' || row.gas_tx_hash !== latest.hash) return null;
          const h = await recordChainTx(q, {
            chainId: this.chainId,
            purpose: 'gas_topup',
            sweepId: s.id,
            from: this.hot.address,
            nonce: latest.nonce,
            raw,
            gasPrice: newPrice,
            sentHead: null,
          });
          await q('update sweeps set gas_tx_hash = $2, updated_at = now() where id = $1', [s.id, h]);
          return h;
        });
        if (hash) {
          result.bumped++;
          await this.send(hash, raw, s);
          return null;
        }
      }
    }
    if (await this.resend(latest, s)) result.resent++;
    return null;
  }

  /** ready: sign the sweep from the deposit address (ETH: all but the fee; token: its whole balance). */
  private async sendSweep(s: Sweep, price: () => Promise<{ price: bigint; capped: boolean }>, result: SweeperTickResult): Promise<void> {
    const account = this.wallet.depositAccount(s.index);
    if (account.address.toLowerCase() !== s.address.toLowerCase()) {
      throw new Error(`sweep ${s.id}: address index ${s.index} derives ${account.address}, not ${s.address}`);
    }
    const [nonce, eth, head] = await Promise.all([
      this.client.getTransactionCount({ address: s.address }),
      this.client.getBalance({ address: s.address }),
      this.client.getBlockNumber(),
    ]);
    let tx: { to: Address; value: bigint; data?: `0x${string}`; gas: bigint; gasPrice: bigint; amount: bigint };
    if (s.native) {
      const gas = await price();
      if (gas.capped) return this.note(s, `gas price ${gas.price} above the cap`);
      const value = eth - TRANSFER_GAS * gas.price;
      if (value <= 0n) {
        await this.finish(s, 'failed', 'balance below the cost of sweeping it');
        result.failed++;
        return;
      }
      tx = { to: this.hot.address, value, gas: TRANSFER_GAS, gasPrice: gas.price, amount: value };
    } else {
      const tokens = await this.client.readContract({
        address: s.contract as Address,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [s.address],
      });
      if (tokens === 0n) {
        await this.finish(s, 'done', 'nothing left to sweep');
        result.done++;
        return;
      }
      const gasLimit = s.gasLimit as bigint;
      const gasPrice = s.gasPrice as bigint;
      if (eth < gasLimit * gasPrice) {
        // the top-up is gone (reorg) or was spent: ask for gas again
        await this.database.sql.query(
          `update sweeps set status = 'gas_required', last_error = 'deposit address lacks the gas for the sweep', updated_at = now()
           where id = $1 and status = 'ready'`,
          [s.id],
        );
        return;
      }
      tx = {
        to: s.contract as Address,
        value: 0n,
        data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [this.hot.address, tokens] }),
        gas: gasLimit,
        gasPrice,
        amount: tokens,
      };
    }
    const signed = await inTransaction(this.database, async (q) => {
      const [row] = await q<{ status: string }>('select status from sweeps where id = $1 for update skip locked', [s.id]);
      if (row?.status !== 'ready') return null;
      const raw = await account.signTransaction({
        type: 'legacy',
        chainId: this.chainId,
        nonce,
        to: tx.to,
        value: tx.value,
        data: tx.data,
        gas: tx.gas,
        gasPrice: tx.gasPrice,
      });
      const hash = await recordChainTx(q, {
        chainId: this.chainId,
        purpose: 'sweep',
        sweepId: s.id,
        from: s.address,
        nonce,
        raw,
        gasPrice: tx.gasPrice,
        sentHead: head,
      });
      await q(
        `update sweeps set status = 'sent', tx_hash = $2, amount = $3::numeric, nonce = $4, gas_limit = $5::numeric,
                gas_price = $6::numeric, updated_at = now() where id = $1`,
        [s.id, hash, tx.amount.toString(), nonce, tx.gas.toString(), tx.gasPrice.toString()],
      );
      return { raw, hash };
    });
    if (!signed) return;
    result.sent++;
    this.log.info({ sweep: s.id, address: s.address, amount: tx.amount.toString(), txHash: signed.hash }, 'sweep sent');
    await this.hook({ sweepId: s.id, purpose: 'sweep', txHash: signed.hash });
    await this.send(signed.hash, signed.raw, s);
  }

  /** sent: mined -> done; reverted -> retry (gas again for a token); nonce gone -> sign again; stale ETH sweep -> replace. */
  private async followSweep(
    s: Sweep,
    attempts: ChainTx[],
    receipts: Map<string, TransactionReceipt | null>,
    addressCount: number,
    price: () => Promise<{ price: bigint; capped: boolean }>,
    result: SweeperTickResult,
  ): Promise<void> {
    const mined = minedAttempt(attempts, receipts as Map<`0x${string}`, TransactionReceipt | null>);
    if (mined) {
      const ok = mined.receipt.status === 'success';
      const giveUp = !ok && s.attempts + 1 >= this.maxAttempts;
      await inTransaction(this.database, async (q) => {
        await markAttempts(
          q,
          attempts.map((a) => a.id),
          mined.attempt.id,
          ok ? 'mined' : 'reverted',
          mined.receipt.blockNumber,
        );
        if (ok) {
          await q(`update sweeps set status = 'done', tx_hash = $2, last_error = null, updated_at = now() where id = $1`, [
            s.id,
            mined.attempt.hash,
          ]);
        } else {
          await q(
            `update sweeps set status = $2, attempts = attempts + 1, last_error = 'sweep reverted on chain', updated_at = now() where id = $1`,
            [s.id, giveUp ? 'failed' : s.native ? 'ready' : 'gas_required'],
          );
        }
      });
      if (ok) {
        result.done++;
        this.log.info({ sweep: s.id, txHash: mined.attempt.hash }, 'sweep done');
      } else if (giveUp) {
        result.failed++;
        this.log.error({ sweep: s.id, txHash: mined.attempt.hash }, 'sweep reverted too often: given up');
      } else {
        result.retried++;
        this.log.warn({ sweep: s.id, txHash: mined.attempt.hash }, 'sweep reverted: retrying');
      }
      return;
    }
    const latest = attempts[attempts.length - 1];
    if (!latest) return;
    if (addressCount > latest.nonce) {
      // the nonce was used by a transaction that is none of ours: sign the sweep again (a
      // second sweep can only move more of Coffer's own funds to the hot wallet)
      await inTransaction(this.database, async (q) => {
        for (const a of attempts) await q(`update chain_txs set status = 'replaced' where id = $1`, [a.id]);
        await q(
          `update sweeps set status = 'ready', last_error = 'sweep nonce used by another transaction', updated_at = now()
           where id = $1 and status = 'sent'`,
          [s.id],
        );
      });
      result.retried++;
      return;
    }
    if (s.native && latest.ageMs >= this.bumpAfterMs) {
      // replace: same nonce, higher price, and the value lowered by the extra fee (still no dust)
      const gas = await price();
      let newPrice = bumpedGasPrice(latest.gasPrice, gas.price);
      if (this.maxFeeWei !== undefined && newPrice > this.maxFeeWei) newPrice = this.maxFeeWei;
      const old = this.valueOf(latest);
      const value = old + TRANSFER_GAS * latest.gasPrice - TRANSFER_GAS * newPrice;
      if (newPrice >= bumpedGasPrice(latest.gasPrice, 0n) && value > 0n) {
        const account = this.wallet.depositAccount(s.index);
        const raw = await signReplacement(account, latest, newPrice, this.chainId, value);
        const hash = await inTransaction(this.database, async (q) => {
          const [row] = await q<{ status: string; tx_hash: string | null }>('select status, tx_hash from sweeps where id = $1 for update', [
            s.id,
          ]);
          if (row?.status !== 'sent' || row.tx_hash !== latest.hash) return null;
          const h = await recordChainTx(q, {
            chainId: this.chainId,
            purpose: 'sweep',
            sweepId: s.id,
            from: s.address,
            nonce: latest.nonce,
            raw,
            gasPrice: newPrice,
            sentHead: null,
          });
          await q('update sweeps set tx_hash = $2, amount = $3::numeric, gas_price = $4::numeric, updated_at = now() where id = $1', [
            s.id,
            h,
            value.toString(),
            newPrice.toString(),
          ]);
          return h;
        });
        if (hash) {
          result.bumped++;
          await this.send(hash, raw, s);
          return;
        }
      }
    }
    if (await this.resend(latest, s)) result.resent++;
  }

  private async hook(info: Parameters<NonNullable<SweeperOptions['afterCommit']>>[0]): Promise<void> {
    try {
      await this.afterCommit?.(info);
    } catch (err) {
      throw new HookAbort(err);
    }
  }

  private valueOf(attempt: ChainTx): bigint {
    return parseTransaction(attempt.raw).value ?? 0n;
  }

  private async send(hash: string, raw: `0x${string}`, s: Sweep): Promise<void> {
    const sent = await broadcast(this.client, raw);
    if (sent.outcome === 'sent' || sent.outcome === 'known') return;
    const [row] = await this.database.sql.query<{ id: number }>('select id from chain_txs where chain_id = $1 and tx_hash = $2', [
      this.chainId,
      hash,
    ]);
    if (row) await noteBroadcast(this.database, Number(row.id), sent);
    if (sent.outcome === 'error') {
      await this.note(s, `broadcast refused: ${sent.error}`);
      this.log.warn({ sweep: s.id, txHash: hash, error: sent.error }, 'sweep transaction refused; re-sent next tick');
    }
  }

  private async resend(latest: ChainTx, s: Sweep): Promise<boolean> {
    const sent = await broadcast(this.client, latest.raw);
    await noteBroadcast(this.database, latest.id, sent);
    if (sent.outcome === 'error') await this.note(s, `broadcast refused: ${sent.error}`);
    return sent.outcome === 'sent';
  }

  private async note(s: Sweep, error: string): Promise<void> {
    await this.database.sql.query('update sweeps set last_error = $2, updated_at = now() where id = $1', [s.id, error.slice(0, 500)]);
  }

  private async finish(s: Sweep, status: 'done' | 'failed', why: string): Promise<void> {
    await this.database.sql.query(
      `update sweeps set status = $2, last_error = $3, updated_at = now() where id = $1 and status not in ('done', 'failed')`,
      [s.id, status, why],
    );
  }
}
