import type { ChainAdapter, ChainDeposit } from '../adapter.ts';
import { addressScriptHex, deriveBip84Address, normalizeUtxoAddress } from './address.ts';
import type { UtxoParams } from './params.ts';
import { type RpcValue, rpcInt, toBaseUnits, type UtxoRpc, UtxoRpcError } from './rpc.ts';

/**
 * Transactions fetched (in whole blocks, verbose JSON) per JSON-RPC batch, and batches in
 * flight at once. Each request costs a round trip (about 25 ms against litecoind on loopback,
 * measured), so small regtest blocks go many to a batch, while full mainnet blocks (thousands
 * of transactions, several MB of JSON each) go one or two at a time, bounding memory; the
 * node serves 16 requests at once by default (-rpcworkqueue).
 */
export const UTXO_SCAN_TXS_PER_BATCH = 5000;
export const UTXO_SCAN_PARALLEL_BATCHES = 2;
/** The node's code for a height above its tip (getblockhash). */
const RPC_INVALID_PARAMETER = -8;

export interface BlockTx {
  txid: string;
  vin: Array<{ coinbase?: string }>;
  vout: Array<{ n: string; value: string; scriptPubKey: { hex: string } }>;
}

interface HeaderRequest {
  n: bigint;
  resolve(header: { number: bigint; hash: string; parentHash: string } | null): void;
  reject(err: unknown): void;
}

interface Block {
  hash: string;
  height: string;
  tx: BlockTx[];
}

/**
 * A chain of the UTXO family (Bitcoin Core, Litecoin Core) through the node's JSON-RPC.
 * Deposits are outputs whose script is a watched address's script: matching on the script
 * (not on the address the node prints) works alike for every node version and network
 * (docs/decisions/048-utxo-family.md). An output is a deposit with logIndex = its vout; a UTXO
 * transaction has no single sender, so `from` is empty.
 */
export class UtxoChainAdapter implements ChainAdapter {
  readonly family = 'utxo' as const;
  // address -> its output script, computed once per address
  private readonly scripts = new Map<string, string>();
  private readonly headerQueue: HeaderRequest[] = [];

  constructor(
    private readonly rpc: UtxoRpc,
    readonly params: UtxoParams,
    private readonly accountXpub: string,
  ) {}

  async chainId(): Promise<number> {
    return this.params.chainId;
  }

  async head(): Promise<{ number: bigint; hash: string }> {
    // One call answers the tip's height and hash together (the node reads both under one lock).
    const info = (await this.rpc.call('getblockchaininfo')) as { blocks: string; bestblockhash: string };
    return { number: BigInt(rpcInt(info.blocks)), hash: info.bestblockhash };
  }

  /**
   * Headers asked for in the same turn of the event loop (the watcher asks for up to a
   * hash window's worth at once) go to the node as two batches: a node serves a bounded
   * number of concurrent requests (Bitcoin Core's -rpcworkqueue, 16 by default).
   */
  blockHeader(n: bigint): Promise<{ number: bigint; hash: string; parentHash: string } | null> {
    return new Promise((resolve, reject) => {
      if (this.headerQueue.length === 0) setImmediate(() => this.flushHeaders());
      this.headerQueue.push({ n, resolve, reject });
    });
  }

  private async flushHeaders(): Promise<void> {
    const queue = this.headerQueue.splice(0);
    try {
      const hashes = await this.rpc.batchSettled(queue.map((q) => ({ method: 'getblockhash', params: [Number(q.n)] })));
      const known = hashes.flatMap((h) => (typeof h === 'string' ? [h] : []));
      const headers = (await this.rpc.batch(known.map((h) => ({ method: 'getblockheader', params: [h] })))) as Array<{
        height: string;
        hash: string;
        previousblockhash?: string;
      }>;
      const byHash = new Map(headers.map((h) => [h.hash, h]));
      for (const [i, q] of queue.entries()) {
        const hash = hashes[i];
        if (hash instanceof UtxoRpcError && hash.code === RPC_INVALID_PARAMETER) q.resolve(null);
        else if (hash instanceof Error) q.reject(hash);
        else {
          const header = byHash.get(String(hash))!;
          q.resolve({ number: BigInt(rpcInt(header.height)), hash: header.hash, parentHash: header.previousblockhash ?? '' });
        }
      }
    } catch (err) {
      for (const q of queue) q.reject(err);
    }
  }

  async scanDeposits(
    from: bigint,
    to: bigint,
    watched: ReadonlySet<string>,
    assets: ReadonlyArray<{ networkId: number; contract: string | null }>,
  ): Promise<ChainDeposit[]> {
    // A UTXO chain has one asset: its coin (no contracts).
    const native = assets.find((a) => a.contract === null);
    if (!native || watched.size === 0 || from > to) return [];
    const byScript = this.watchedScripts(watched);
    const groups = await this.blockGroups(from, to);
    const found: ChainDeposit[][] = new Array(groups.length);
    let next = 0;
    const worker = async () => {
      while (next < groups.length) {
        const i = next++;
        const blocks = (await this.rpc.batch(groups[i]!.map((hash) => ({ method: 'getblock', params: [hash, 2] })))) as unknown as Block[];
        found[i] = blocks.flatMap((block) => depositsIn(block, byScript, native.networkId));
      }
    };
    await Promise.all(Array.from({ length: Math.min(UTXO_SCAN_PARALLEL_BATCHES, groups.length) }, worker));
    return found.flat();
  }

  /** The hashes of blocks [from, to] in groups of at most UTXO_SCAN_TXS_PER_BATCH transactions (one block at least). */
  private async blockGroups(from: bigint, to: bigint): Promise<string[][]> {
    const heights: number[] = [];
    for (let n = from; n <= to; n++) heights.push(Number(n));
    const hashes = (await this.rpc.batch(heights.map((h) => ({ method: 'getblockhash', params: [h] })))) as string[];
    const headers = (await this.rpc.batch(hashes.map((h) => ({ method: 'getblockheader', params: [h] })))) as Array<{ nTx: string }>;
    const counts = headers.map((h) => rpcInt(h.nTx));
    // A range smaller than the budget is still split across the batches in flight.
    const total = counts.reduce((a, b) => a + b, 0);
    const budget = Math.min(UTXO_SCAN_TXS_PER_BATCH, Math.ceil(total / UTXO_SCAN_PARALLEL_BATCHES));
    const groups: string[][] = [];
    let txs = 0;
    hashes.forEach((hash, i) => {
      const n = counts[i]!;
      if (groups.length === 0 || txs + n > budget) {
        groups.push([]);
        txs = 0;
      }
      groups.at(-1)!.push(hash);
      txs += n;
    });
    return groups;
  }

  deriveDepositAddress(index: number): string {
    return deriveBip84Address(this.accountXpub, index, this.params);
  }

  normalizeAddress(s: string): string | null {
    return normalizeUtxoAddress(s, this.params);
  }

  /** script hex -> the watched address as given (the watcher looks its owner up by it). */
  watchedScripts(watched: ReadonlySet<string>): Map<string, string> {
    const byScript = new Map<string, string>();
    for (const address of watched) {
      let script = this.scripts.get(address);
      if (script === undefined) {
        script = addressScriptHex(normalizeUtxoAddress(address, this.params) ?? address, this.params);
        this.scripts.set(address, script);
      }
      byScript.set(script.toLowerCase(), address);
    }
    return byScript;
  }
}

/**
 * The outputs of one block paying a watched script, in block order. Coinbase outputs are
 * left out: they are the miner's, spendable only 100 blocks later.
 */
export function depositsIn(block: Block, byScript: ReadonlyMap<string, string>, networkId: number): ChainDeposit[] {
  return block.tx.flatMap((tx) =>
    outputsPaying(tx, byScript).map((out) => ({
      networkId,
      txHash: tx.txid,
      logIndex: out.vout,
      blockNumber: BigInt(rpcInt(block.height)),
      blockHash: block.hash,
      from: '',
      to: out.to,
      value: out.value,
    })),
  );
}

/** The outputs of one transaction paying a watched script (none for a coinbase), in vout order. */
export function outputsPaying(tx: BlockTx, byScript: ReadonlyMap<string, string>): Array<{ vout: number; to: string; value: bigint }> {
  if (tx.vin.some((i) => i.coinbase !== undefined)) return [];
  const found: Array<{ vout: number; to: string; value: bigint }> = [];
  for (const out of tx.vout) {
    const to = byScript.get(out.scriptPubKey.hex.toLowerCase());
    if (to === undefined) continue;
    const value = toBaseUnits(out.value as RpcValue);
    if (value > 0n) found.push({ vout: rpcInt(out.n), to, value });
  }
  return found;
}
