import { encodeFunctionData, erc20Abi, formatUnits, parseUnits } from 'viem';
import type { ChainLog } from '../chain/txs.ts';
import type { Database } from '../db/client.ts';
import { Prng } from '../sim/prng.ts';
import { holdingsMatchLedger, noNonceGaps, nothingStaleUnalerted, oneSweepPerAddress, paidOnce } from './checks.ts';
import { CHAIN_FAULTS, type ChainFault } from './faults.ts';
import type { PlantedBug } from './planted.ts';
import { openSimDatabase, SIM_USDT, type SimEnv, setupSimEnv } from './setup.ts';

/** Simulated time per step (s): about one Ethereum block. */
const SIMULATED_BLOCK_SECONDS = 12;
/**
 * The chain simulator (docs/decisions/042): a seeded run of deposits, withdrawals and chain
 * faults against the real deposit watcher, sender, sweeper and reconciler over a real
 * database, with the invariants of checks.ts after every step. The chain double mines one
 * block per step; faults draw from a second PRNG stream so that a change in what a fault
 * draws cannot shift the actions.
 */

export const ACTIONS = { deposit_eth: 18, deposit_usdt: 18, withdraw_eth: 16, withdraw_usdt: 16, fault: 18, idle: 14 } as const;
export type SimAction = keyof typeof ACTIONS;
/** Steps allowed at the end, with every fault cleared, for everything to become final. */
export const QUIESCE_STEPS_LIMIT = 60;
/** Recipients of withdrawals (strangers' addresses). */
const RECIPIENTS = Array.from({ length: 5 }, (_, i) => `0x${(0xbeef0000 + i).toString(16).padStart(40, '0')}`);

export interface ChainSimOptions {
  seed: number;
  steps: number;
  /** a database to run on (closed at the end); default: openSimDatabase(databaseUrl) */
  database?: Database;
  databaseUrl?: string;
  users?: number;
  planted?: PlantedBug;
  log?: ChainLog;
}

export interface ChainSimReport {
  seed: number;
  steps: number;
  planted: PlantedBug | null;
  completed: number;
  actions: Record<string, number>;
  faults: Record<ChainFault, number>;
  outcomes: Record<string, number>;
  workerErrors: Record<string, number>;
  rpcCalls: Record<string, number>;
  /** rows at the end by table and status (withdrawal:completed 12, chain_tx:replaced 3, ...) */
  rows: Record<string, number>;
  /** milliseconds spent per worker and per check over the run */
  ms: Record<string, number>;
  blocks: number;
  quiesceSteps: number;
  setupMs: number;
  elapsedMs: number;
  stepsPerSecond: number;
  divergence: { step: number; action: string; message: string } | null;
}

const CHECKS = [paidOnce, noNonceGaps, oneSweepPerAddress, holdingsMatchLedger] as const;

export async function runChainSimulation(opts: ChainSimOptions): Promise<ChainSimReport> {
  const t0 = performance.now();
  const prng = new Prng(opts.seed);
  const faultPrng = new Prng(opts.seed ^ 0x5eed);
  const database = opts.database ?? (await openSimDatabase(opts.databaseUrl));
  const env = await setupSimEnv({ database, faultPrng, users: opts.users ?? 6, planted: opts.planted, log: opts.log });
  const report: ChainSimReport = {
    seed: opts.seed,
    steps: opts.steps,
    planted: opts.planted ?? null,
    completed: 0,
    actions: {},
    faults: env.faults.injected,
    outcomes: {},
    workerErrors: {},
    rpcCalls: {},
    ms: {},
    rows: {},
    blocks: 0,
    quiesceSteps: 0,
    setupMs: performance.now() - t0,
    elapsedMs: 0,
    stepsPerSecond: 0,
    divergence: null,
  };
  const run = new Run(env, prng, faultPrng, report);
  try {
    for (let step = 1; step <= opts.steps && !report.divergence; step++) {
      const action = prng.weighted(ACTIONS);
      report.actions[action] = (report.actions[action] ?? 0) + 1;
      const what = await run.act(action);
      report.divergence = await run.advance(step, what);
      if (!report.divergence) report.completed = step;
    }
    if (!report.divergence) report.divergence = await run.quiesce(opts.steps);
  } finally {
    report.elapsedMs = performance.now() - t0;
    report.stepsPerSecond = report.completed / ((report.elapsedMs - report.setupMs) / 1000);
    report.rpcCalls = Object.fromEntries(env.rpc.calls);
    report.blocks = env.chain.blocks.length - 1;
    report.rows = await finalRows(env.database).catch(() => ({}));
    await env.close(); // nothing above may throw: a scratch database must be dropped
  }
  return report;
}

class Run {
  private healthy = 0;
  private readonly openedAt = new Map<string, number>();
  private faultCount = 0;
  private readonly faultStart: number;

  constructor(
    private readonly env: SimEnv,
    private readonly prng: Prng,
    faultPrng: Prng,
    private readonly report: ChainSimReport,
  ) {
    this.faultStart = faultPrng.int(CHAIN_FAULTS.length);
  }

  private time(what: string, since: number): void {
    this.report.ms[what] = Math.round((this.report.ms[what] ?? 0) + performance.now() - since);
  }

  private count(outcome: string): void {
    this.report.outcomes[outcome] = (this.report.outcomes[outcome] ?? 0) + 1;
  }

  async act(action: SimAction): Promise<string> {
    switch (action) {
      case 'deposit_eth':
      case 'deposit_usdt':
        return this.deposit(action === 'deposit_eth' ? 'ETH' : 'USDT');
      case 'withdraw_eth':
      case 'withdraw_usdt':
        return this.withdraw(action === 'withdraw_eth' ? 'ETH' : 'USDT');
      case 'fault': {
        // kinds in turn from a seeded start, so that a short run injects each
        const kind = CHAIN_FAULTS[(this.faultStart + this.faultCount++) % CHAIN_FAULTS.length] as ChainFault;
        const fault = `fault ${await this.env.faults.inject(kind)}`;
        // a payout signed in this tick, for the foreign transaction to take its nonce
        return kind === 'foreign_nonce' ? `${fault}; ${await this.withdraw('ETH')}` : fault;
      }
      case 'idle':
        return 'idle';
    }
  }

  /** A depositor's wallet sends ETH (0.01-0.2) or USDT (5-200) to a user's deposit address. */
  private async deposit(code: 'ETH' | 'USDT'): Promise<string> {
    const { env, prng } = this;
    const user = prng.pick(env.users);
    const amount = code === 'ETH' ? prng.big(10_000n, 200_000n) * 10n ** 12n : prng.big(5n, 200n) * 10n ** 6n;
    const nonce = env.chain.pendingNonce(env.depositor);
    const raw = await env.depositorAccount.signTransaction({
      type: 'legacy',
      chainId: env.chainId,
      nonce,
      to: code === 'ETH' ? user.address : SIM_USDT,
      value: code === 'ETH' ? amount : 0n,
      data: code === 'ETH' ? undefined : encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [user.address, amount] }),
      gas: code === 'ETH' ? 21_000n : 60_000n,
      gasPrice: 400n * 10n ** 9n, // above any spike: deposits are not what the faults test
    });
    await env.chain.submit(raw);
    this.count(`deposit_${code}`);
    return `deposit ${formatUnits(amount, code === 'ETH' ? 18 : 6)} ${code} to user ${user.uid}`;
  }

  /** A user withdraws part of their available balance through coffer_withdraw_apply with a fee quote at the minimum fee (as the API does after a quote). */
  private async withdraw(code: 'ETH' | 'USDT'): Promise<string> {
    const { env, prng } = this;
    const user = prng.pick(env.users);
    const [row] = await env.database.sql.query<{ balance: string }>(
      `select balance::text as balance from accounts where user_id = $1 and currency_id = $2 and kind = 'available'`,
      [user.uid, env.currencies[code]],
    );
    // amounts in micro-ETH or whole USDT; the fee (0.0005 ETH, 1 USDT) must be left for
    const scale = code === 'ETH' ? 6 : 0;
    const avail = parseUnits(row?.balance ?? '0', 18) / 10n ** BigInt(18 - scale);
    const [min, fee, max] = code === 'ETH' ? [2000n, 500n, 60_000n] : [2n, 1n, 150n];
    const top = avail - fee < max ? avail - fee : max;
    const to = prng.pick(RECIPIENTS);
    if (top < min) return `withdraw ${code}: user ${user.uid} has too little`;
    const amount = formatUnits(prng.big(min, top), scale);
    try {
      const [w] = await env.database.sql.query<{ w_id: number }>(
        `with q as (insert into withdrawal_fee_quotes (user_id, network_id, fee, gas_limit, chain_gas_price_wei, gas_price_wei,
                                                  margin_percent, fees_high, expires_at)
                select $1, id, withdraw_fee, 21000, 0, 0, 0, false, now() + interval '1 minute' from networks where id = $2 returning id)
     select a.* from q, coffer_withdraw_apply($1, $2, $3, $4::numeric, null, null, null, q.id) a`,
        [user.uid, env.nets[code], to, amount],
      );
      this.count(`withdraw_${code}`);
      return `withdraw ${amount} ${code} by user ${user.uid} (withdrawal ${w?.w_id})`;
    } catch (err) {
      this.count('withdraw_refused');
      return `withdraw ${amount} ${code} refused: ${String((err as Error).message).slice(0, 80)}`;
    }
  }

  /** Workers tick in startChain's order, the double mines a block, the faults age, the checks run. */
  async advance(step: number, action: string): Promise<ChainSimReport['divergence']> {
    for (const w of this.env.workers) {
      const t = performance.now();
      try {
        await w.tick();
      } catch {
        this.report.workerErrors[w.name] = (this.report.workerErrors[w.name] ?? 0) + 1;
      }
      this.time(w.name, t);
    }
    const foreign = await this.env.faults.afterTicks();
    const what = foreign ? `${action}; ${foreign}` : action;
    this.env.chain.mine();
    // a step is one block of simulated time: stored back-offs (the database's clock) move on by it
    await this.env.database.sql.query(
      `update chain_txs set next_broadcast_at = next_broadcast_at - make_interval(secs => $1) where next_broadcast_at is not null`,
      [SIMULATED_BLOCK_SECONDS],
    );
    this.env.faults.endStep();
    if (!this.env.faults.active) this.healthy++;
    // every check runs, so that a step shows all that one bug breaks
    const found: string[] = [];
    for (const check of CHECKS) {
      const t = performance.now();
      const message = await check(this.env);
      if (message) found.push(`${check.name}: ${message}`);
      this.time(check.name, t);
    }
    const t = performance.now();
    const stale = await nothingStaleUnalerted(this.env, this.openedAt, this.healthy);
    this.time('nothingStaleUnalerted', t);
    if (stale) found.push(`nothingStaleUnalerted: ${stale}`);
    return found.length > 0 ? { step, action: what, message: found.join('\n  ') } : null;
  }

  /** Every fault cleared, steps until nothing is open; then everything must be final and exact. */
  async quiesce(after: number): Promise<ChainSimReport['divergence']> {
    this.env.faults.calm();
    for (let i = 1; i <= QUIESCE_STEPS_LIMIT; i++) {
      this.report.quiesceSteps = i;
      const diverged = await this.advance(after + i, 'quiesce');
      if (diverged) return diverged;
      if (await this.settled()) return null;
    }
    const open = await this.openWork();
    return {
      step: after + QUIESCE_STEPS_LIMIT,
      action: 'quiesce',
      message: `not quiescent after ${QUIESCE_STEPS_LIMIT} calm steps: ${open}`,
    };
  }

  private async settled(): Promise<boolean> {
    return (await this.openWork()) === '' && this.env.chain.poolTxs().length === 0;
  }

  private async openWork(): Promise<string> {
    const [row] = await this.env.database.sql.query<{ w: string | null; s: string | null; d: string | null }>(
      // a queued payout on a network an open incident froze waits for the operator, as it must
      `select (select string_agg(id || ':' || status, ' ') from withdrawals
                where status in ('review', 'queued', 'broadcast', 'confirming')
                  and not (status = 'queued' and chain_payouts_frozen(network_id))) as w,
              (select string_agg(id || ':' || status, ' ') from sweeps where status not in ('done', 'failed')) as s,
              (select string_agg(id || ':' || status, ' ') from deposits where status not in ('credited')) as d`,
    );
    const parts = [row?.w && `withdrawals ${row.w}`, row?.s && `sweeps ${row.s}`, row?.d && `deposits ${row.d}`].filter(Boolean);
    return parts.join('; ');
  }
}

async function finalRows(database: Database): Promise<Record<string, number>> {
  const rows = await database.sql.query<{ k: string; n: number }>(
    `select 'withdrawal:' || status as k, count(*)::int as n from withdrawals group by status
     union all select 'deposit:' || status, count(*)::int from deposits group by status
     union all select 'sweep:' || status, count(*)::int from sweeps group by status
     union all select 'chain_tx:' || purpose || ':' || status, count(*)::int from chain_txs group by purpose, status
     union all select 'incident:' || kind, count(*)::int from chain_incidents group by kind
     order by 1`,
  );
  return Object.fromEntries(rows.map((r) => [r.k, Number(r.n)]));
}
