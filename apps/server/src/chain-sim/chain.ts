import { type Hex, keccak256, toHex } from 'viem';
import {
  type Addr,
  type Block,
  copyState,
  decodeRaw,
  ethOf,
  execute,
  type MinedTx,
  mint,
  rpcError,
  type SimTx,
  type WorldState,
} from './world.ts';

/** Transactions in one block at most (the double's block gas limit, in transactions). */
export const BLOCK_TX_LIMIT = 40;
/** geth's txpool price bump for a same-nonce replacement, in percent. */
export const REPLACE_BUMP_PERCENT = 10n;
const GWEI = 1_000_000_000n;
/** What eth_gasPrice adds to the base fee (a legacy transaction pays it all). */
export const PRIORITY_FEE = 1n * GWEI;

/**
 * An EVM chain in memory: blocks mined when the simulator says so, a mempool with geth's
 * rules (nonce too low, same-nonce replacement only at >= +10%, already known), legacy and
 * EIP-1559 transactions decoded from their raw form, ETH and ERC-20 transfers applied with
 * their gas charged, and reorgs that put the removed blocks' transactions back in the pool
 * (or drop them). Every state is a plain value: the same calls give the same chain.
 */
export class SimChain {
  readonly chainId: number;
  readonly tokens: Set<Addr>;
  readonly blocks: Block[] = [];
  /** sender -> nonce -> transaction */
  readonly pool = new Map<Addr, Map<number, SimTx>>();
  baseFee = 1n * GWEI;
  /** a counter in every block hash, so that a block mined again after a reorg has another hash */
  private fork = 0;

  constructor(opts: { chainId: number; tokens: Addr[]; genesis: (s: WorldState) => void }) {
    this.chainId = opts.chainId;
    this.tokens = new Set(opts.tokens.map((t) => t.toLowerCase() as Addr));
    const state: WorldState = { eth: new Map(), tokens: new Map(), nonces: new Map() };
    opts.genesis(state);
    this.blocks.push(this.seal(0, `0x${'0'.repeat(64)}`, [], state));
  }

  get head(): Block {
    return this.blocks[this.blocks.length - 1] as Block;
  }

  get state(): WorldState {
    return this.head.post;
  }

  gasPrice(): bigint {
    return this.baseFee + PRIORITY_FEE;
  }

  /** The next nonce of `a` counting its executable pool transactions (eth_getTransactionCount 'pending'). */
  pendingNonce(a: Addr): number {
    let n = this.state.nonces.get(a) ?? 0;
    const mine = this.pool.get(a);
    while (mine?.has(n)) n++;
    return n;
  }

  /** eth_sendRawTransaction with geth's answers. */
  async submit(raw: Hex): Promise<Hex> {
    const tx = await decodeRaw(raw);
    if (tx.gasPrice < this.baseFee) throw rpcError(-32000, 'transaction underpriced: gas price below the base fee');
    const next = this.state.nonces.get(tx.from) ?? 0;
    if (tx.nonce < next) throw rpcError(-32000, 'nonce too low');
    const mine = this.pool.get(tx.from) ?? new Map<number, SimTx>();
    const old = mine.get(tx.nonce);
    if (old?.hash === tx.hash) throw rpcError(-32000, 'already known');
    if (old && tx.gasPrice * 100n < old.gasPrice * (100n + REPLACE_BUMP_PERCENT)) {
      throw rpcError(-32000, 'replacement transaction underpriced');
    }
    if (ethOf(this.state, tx.from) < tx.value + tx.gas * tx.gasPrice) {
      throw rpcError(-32000, 'insufficient funds for gas * price + value');
    }
    mine.set(tx.nonce, tx);
    this.pool.set(tx.from, mine);
    return tx.hash;
  }

  /** Removes a transaction from the pool (the node forgot it). */
  drop(tx: SimTx): void {
    this.pool.get(tx.from)?.delete(tx.nonce);
  }

  poolTxs(): SimTx[] {
    return [...this.pool.values()].flatMap((m) => [...m.values()]).sort((a, b) => a.hash.localeCompare(b.hash));
  }

  /**
   * Mines one block: repeatedly the best-paying transaction whose nonce is next, priced at
   * or above the base fee and affordable; what is left stays in the pool.
   */
  mine(): Block {
    const state = copyState(this.state);
    const txs: MinedTx[] = [];
    while (txs.length < BLOCK_TX_LIMIT) {
      let best: SimTx | undefined;
      for (const [from, mine] of this.pool) {
        const tx = mine.get(state.nonces.get(from) ?? 0);
        if (!tx || tx.gasPrice < this.baseFee || ethOf(state, from) < tx.value + tx.gas * tx.gasPrice) continue;
        if (!best || tx.gasPrice > best.gasPrice || (tx.gasPrice === best.gasPrice && tx.hash < best.hash)) best = tx;
      }
      if (!best) break;
      this.pool.get(best.from)?.delete(best.nonce);
      txs.push(execute(state, this.tokens, best));
    }
    // stale pool entries (their nonce was consumed by another transaction) go away, as in geth
    for (const [from, mine] of this.pool) {
      const next = state.nonces.get(from) ?? 0;
      for (const n of mine.keys()) if (n < next) mine.delete(n);
    }
    const block = this.seal(this.head.number + 1, this.head.hash, txs, state);
    this.blocks.push(block);
    return block;
  }

  /**
   * Removes the top `depth` blocks; their transactions go back to the pool unless `keep`
   * says no (then they are gone, as when a node never sees them again).
   */
  reorg(depth: number, keep: (tx: SimTx) => boolean): SimTx[] {
    const removed = this.blocks.splice(this.blocks.length - depth, depth);
    this.fork++;
    const lost: SimTx[] = [];
    for (const b of removed) {
      for (const m of b.txs) {
        const mine = this.pool.get(m.tx.from) ?? new Map<number, SimTx>();
        if (keep(m.tx) && !mine.has(m.tx.nonce)) {
          mine.set(m.tx.nonce, m.tx);
          this.pool.set(m.tx.from, mine);
        } else lost.push(m.tx);
      }
    }
    return lost;
  }

  /** Genesis-style credit after the start (the simulator's depositors get coins this way). */
  credit(a: Addr, eth: bigint): void {
    mint(this.head.post, a.toLowerCase() as Addr, eth);
  }

  blockAt(n: number): Block | undefined {
    return this.blocks[n];
  }

  private seal(number: number, parentHash: Hex, txs: MinedTx[], post: WorldState): Block {
    const hash = keccak256(toHex(`${parentHash}:${number}:${this.fork}:${txs.map((t) => t.tx.hash).join(',')}`));
    return { number, hash, parentHash, timestamp: 1_800_000_000 + number * 12, baseFee: this.baseFee, txs, post };
  }
}
