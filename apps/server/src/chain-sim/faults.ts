import type { LocalAccount } from 'viem';
import type { Prng } from '../sim/prng.ts';
import type { SimChain } from './chain.ts';
import type { RpcHooks } from './rpc.ts';
import { type Addr, rpcError, type SimTx } from './world.ts';

/** The faults the chain double injects; each is chosen by the simulator's seeded PRNG. */
export const CHAIN_FAULTS = ['drop', 'reorg', 'foreign_nonce', 'nonce_too_low', 'underpriced', 'down', 'fee_spike'] as const;
export type ChainFault = (typeof CHAIN_FAULTS)[number];

const GWEI = 1_000_000_000n;
/** Base fee during a spike: above the local networks' 200 gwei cap (migration 0034). */
export const SPIKE_BASE_FEE = 300n * GWEI;
/** Deepest reorg injected, in blocks: below the local networks' 3 confirmations (a deeper one is an incident by design). */
export const MAX_REORG_DEPTH = 2;

/**
 * Fault state between steps: how long the node stays down or the fee spike lasts (in steps),
 * which answers the next broadcasts get, and the foreign transactions sent with the hot
 * wallet's key (the checks must know their nonces and what they cost custody).
 */
export class ChainFaults implements RpcHooks {
  downSteps = 0;
  private foreignArmed = false;
  spikeSteps = 0;
  private sendAnswers: Array<'nonce_too_low' | 'underpriced'> = [];
  /** hot-wallet nonces consumed by transactions Coffer did not sign */
  readonly foreign = new Map<number, SimTx>();
  readonly injected: Record<ChainFault, number> = Object.fromEntries(CHAIN_FAULTS.map((f) => [f, 0])) as Record<ChainFault, number>;

  constructor(
    private readonly chain: SimChain,
    private readonly prng: Prng,
    private readonly hot: LocalAccount,
    /** transactions a fault may drop or lose (custody's; a depositor's wallet re-sends its own) */
    private readonly droppable: (tx: SimTx) => boolean,
  ) {}

  beforeCall(): void {
    if (this.downSteps > 0) throw new Error('fetch failed: connect ECONNREFUSED (chain double is down)');
  }

  beforeSend(): Error | null {
    const answer = this.sendAnswers.shift();
    if (answer === 'nonce_too_low') return rpcError(-32000, 'nonce too low');
    if (answer === 'underpriced') return rpcError(-32000, 'replacement transaction underpriced');
    return null;
  }

  /** True while a fault that stops payouts on purpose lasts (the stale check does not count those steps). */
  get active(): boolean {
    return this.downSteps > 0 || this.spikeSteps > 0;
  }

  /** End of a step: durations count down, the base fee returns after a spike and wanders a little otherwise. */
  endStep(): void {
    if (this.downSteps > 0) this.downSteps--;
    if (this.spikeSteps > 0) this.spikeSteps--;
    this.chain.baseFee = this.spikeSteps > 0 ? SPIKE_BASE_FEE : BigInt(1 + this.prng.int(3)) * GWEI;
  }

  /** Clears every lasting fault (the quiescent end of a run). */
  calm(): void {
    this.downSteps = 0;
    this.spikeSteps = 0;
    this.sendAnswers = [];
    this.foreignArmed = false;
    this.chain.baseFee = GWEI;
  }

  async inject(kind: ChainFault): Promise<string> {
    this.injected[kind]++;
    const c = this.chain;
    switch (kind) {
      case 'drop': {
        const txs = c.poolTxs().filter((tx) => this.canLose(tx));
        if (txs.length === 0) return 'drop: pool empty';
        const tx = this.prng.pick(txs);
        c.drop(tx);
        return `drop ${tx.hash.slice(0, 10)} (nonce ${tx.nonce})`;
      }
      case 'reorg': {
        // never below the genesis block
        const depth = Math.min(1 + this.prng.int(MAX_REORG_DEPTH), c.head.number);
        if (depth === 0) return 'reorg: nothing above genesis';
        const lost = c.reorg(depth, (tx) => !this.canLose(tx) || this.prng.chance(70));
        for (let i = 0; i < depth; i++) c.mine();
        return `reorg ${depth} blocks, ${lost.length} transactions lost`;
      }
      case 'foreign_nonce':
        // after the workers' tick, when the payouts just signed are still in the pool
        this.foreignArmed = true;
        return 'foreign transaction with the hot key after the next tick';
      case 'nonce_too_low':
      case 'underpriced':
        this.sendAnswers.push(kind, kind);
        return `next two broadcasts answer ${kind}`;
      case 'down':
        this.downSteps = 2 + this.prng.int(4);
        return `node down for ${this.downSteps} steps`;
      case 'fee_spike':
        this.spikeSteps = 2 + this.prng.int(4);
        c.baseFee = SPIKE_BASE_FEE;
        return `base fee ${SPIKE_BASE_FEE / GWEI} gwei for ${this.spikeSteps} steps`;
    }
  }

  /** Between the workers' tick and the block: the armed foreign transaction, if any. */
  async afterTicks(): Promise<string | null> {
    if (!this.foreignArmed) return null;
    this.foreignArmed = false;
    return this.foreignNonce();
  }

  /** Custody's transactions may be lost; the depositors' and the foreign wallet's are re-sent by their owners. */
  private canLose(tx: SimTx): boolean {
    return this.droppable(tx) && ![...this.foreign.values()].some((f) => f.hash === tx.hash);
  }

  /**
   * A transaction signed with the hot wallet's key outside Coffer: it replaces a pending
   * hot-wallet transaction (front-running a payout's nonce) or takes the next nonce. A
   * zero-value transfer to a stranger: custody loses only its gas.
   */
  private async foreignNonce(): Promise<string> {
    const c = this.chain;
    const hot = this.hot.address.toLowerCase() as Addr;
    // the lowest pending nonce: the sender ticks first, so that is a payout when one was signed
    const pending = [...(c.pool.get(hot)?.values() ?? [])].sort((a, b) => a.nonce - b.nonce);
    const victim = pending[0];
    const nonce = victim?.nonce ?? c.pendingNonce(hot);
    const base = c.gasPrice() > (victim?.gasPrice ?? 0n) ? c.gasPrice() : (victim?.gasPrice ?? 0n);
    const raw = await this.hot.signTransaction({
      type: 'legacy',
      chainId: c.chainId,
      nonce,
      to: '0x000000000000000000000000000000000000dEaD',
      value: 0n,
      gas: 21_000n,
      gasPrice: base * 2n,
    });
    try {
      await c.submit(raw);
    } catch (err) {
      return `foreign transaction refused: ${(err as Error).message}`;
    }
    const tx = c.poolTxs().find((t) => t.raw === raw) as SimTx;
    this.foreign.set(nonce, tx);
    return `foreign transaction takes hot nonce ${nonce}${victim ? ' (replacing a payout)' : ''}`;
  }
}
