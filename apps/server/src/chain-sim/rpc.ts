import { createPublicClient, custom, decodeFunctionData, encodeFunctionResult, erc20Abi, type Hex, type PublicClient, toHex } from 'viem';
import type { SimChain } from './chain.ts';
import { type Addr, type Block, dryRun, type MinedTx, rpcError, tokenOf, type WorldState } from './world.ts';

/**
 * The chain double as an EIP-1193 provider: the JSON-RPC methods Coffer's watcher, sender,
 * sweeper and reconciler call (found by reading chain/*.ts and by counting calls: see
 * `calls`), answered from a SimChain in the shapes geth answers them. The real code talks
 * to it through viem's `custom` transport, so its viem calls go through JSON-RPC unchanged.
 */

export interface RpcHooks {
  /** before every call: throw to fail it (the node is down) */
  beforeCall?(method: string): void;
  /** before a raw transaction reaches the pool: an error to answer instead of taking it */
  beforeSend?(): Error | null;
}

type Params = readonly unknown[];

export class SimRpc {
  /** calls per method (to see what the real code uses) */
  readonly calls = new Map<string, number>();
  private index: { head: Hex; byHash: Map<Hex, { block: Block; i: number }> } | null = null;

  constructor(
    private readonly chain: SimChain,
    private readonly hooks: RpcHooks = {},
    private readonly decimals: ReadonlyMap<Addr, number> = new Map(),
  ) {}

  /** A viem PublicClient on the double (no retries: a fault is seen by the caller as it happens). */
  client(): PublicClient {
    return createPublicClient({
      transport: custom({ request: ({ method, params }) => this.request(method, (params ?? []) as Params) }, { retryCount: 0 }),
      cacheTime: 0,
      pollingInterval: 10,
    }) as PublicClient;
  }

  async request(method: string, params: Params): Promise<unknown> {
    this.calls.set(method, (this.calls.get(method) ?? 0) + 1);
    this.hooks.beforeCall?.(method);
    const c = this.chain;
    switch (method) {
      case 'eth_chainId':
        return toHex(c.chainId);
      case 'net_version':
        return String(c.chainId);
      case 'eth_blockNumber':
        return toHex(c.head.number);
      case 'eth_gasPrice':
        return toHex(c.gasPrice());
      case 'eth_maxPriorityFeePerGas':
        return toHex(c.gasPrice() - c.baseFee);
      case 'eth_getBlockByNumber': {
        const b = this.blockByTag(params[0]);
        return b ? formatBlock(b, params[1] === true) : null;
      }
      case 'eth_getBlockByHash': {
        const b = c.blocks.find((x) => x.hash === params[0]);
        return b ? formatBlock(b, params[1] === true) : null;
      }
      case 'eth_getBalance':
        return toHex(this.stateAt(params[1]).eth.get(lower(params[0])) ?? 0n);
      case 'eth_getTransactionCount': {
        const a = lower(params[0]);
        return toHex(params[1] === 'pending' ? c.pendingNonce(a) : (this.stateAt(params[1]).nonces.get(a) ?? 0));
      }
      case 'eth_call':
        return this.call(params[0] as CallArgs, this.stateAt(params[1]));
      case 'eth_estimateGas': {
        const a = params[0] as CallArgs;
        const run = dryRun(c.state, c.tokens, lower(a.from ?? ZERO), a.to ? lower(a.to) : null, BigInt(a.value ?? 0), a.data ?? a.input);
        if ('error' in run) throw rpcError(3, run.error ?? 'execution reverted');
        return toHex(run.gas);
      }
      case 'eth_sendRawTransaction':
        return this.send(params[0] as Hex);
      case 'eth_getTransactionReceipt': {
        const at = this.find(params[0] as Hex);
        return at ? formatReceipt(at.block, at.i) : null;
      }
      case 'eth_getTransactionByHash': {
        const at = this.find(params[0] as Hex);
        if (at) return formatTx(at.block.txs[at.i] as MinedTx, at.block, at.i);
        const pooled = c.poolTxs().find((t) => t.hash === params[0]);
        return pooled ? formatTx({ tx: pooled, success: true, gasUsed: 0n, logs: [] }, null, 0) : null;
      }
      case 'eth_getLogs':
        return this.logs(params[0] as LogFilter);
      case 'eth_feeHistory':
        return this.feeHistory(Number(params[0]));
      default:
        throw rpcError(-32601, `the method ${method} does not exist/is not available`);
    }
  }

  private async send(raw: Hex): Promise<Hex> {
    const refused = this.hooks.beforeSend?.() ?? null;
    if (refused) throw refused;
    return this.chain.submit(raw);
  }

  private call(args: CallArgs, state: WorldState): Hex {
    const to = lower(args.to ?? ZERO);
    if (!this.chain.tokens.has(to)) return '0x';
    const data = (args.data ?? args.input) as Hex;
    const fn = decodeFunctionData({ abi: erc20Abi, data });
    if (fn.functionName === 'balanceOf') {
      const holder = lower((fn.args as [string])[0]);
      return encodeFunctionResult({ abi: erc20Abi, functionName: 'balanceOf', result: tokenOf(state, to, holder) });
    }
    if (fn.functionName === 'decimals') {
      return encodeFunctionResult({ abi: erc20Abi, functionName: 'decimals', result: this.decimals.get(to) ?? 18 });
    }
    throw rpcError(3, 'execution reverted');
  }

  private logs(f: LogFilter): unknown[] {
    const from = this.numberOf(f.fromBlock ?? 'latest');
    const to = this.numberOf(f.toBlock ?? 'latest');
    const addresses = f.address === undefined ? null : new Set((Array.isArray(f.address) ? f.address : [f.address]).map(lower));
    const topics = f.topics ?? [];
    const out: unknown[] = [];
    for (let n = Math.max(0, from); n <= Math.min(to, this.chain.head.number); n++) {
      const b = this.chain.blocks[n] as Block;
      let logIndex = 0;
      b.txs.forEach((m, i) => {
        for (const log of m.logs) {
          const idx = logIndex++;
          if (addresses && !addresses.has(log.address)) continue;
          if (!topicsMatch(topics, log.topics)) continue;
          out.push({ ...formatLogBase(b, m, i), address: log.address, topics: log.topics, data: log.data, logIndex: toHex(idx) });
        }
      });
    }
    return out;
  }

  private feeHistory(count: number) {
    const n = Math.max(1, Math.min(count, this.chain.blocks.length));
    const blocks = this.chain.blocks.slice(-n);
    return {
      oldestBlock: toHex(blocks[0]?.number ?? 0),
      baseFeePerGas: [...blocks.map((b) => toHex(b.baseFee)), toHex(this.chain.baseFee)],
      gasUsedRatio: blocks.map(() => 0.5),
      reward: blocks.map(() => [toHex(this.chain.gasPrice() - this.chain.baseFee)]),
    };
  }

  private find(hash: Hex): { block: Block; i: number } | undefined {
    if (this.index?.head !== this.chain.head.hash) {
      const byHash = new Map<Hex, { block: Block; i: number }>();
      for (const block of this.chain.blocks) {
        block.txs.forEach((m, i) => {
          byHash.set(m.tx.hash, { block, i });
        });
      }
      this.index = { head: this.chain.head.hash, byHash };
    }
    return this.index.byHash.get(hash);
  }

  private numberOf(tag: unknown): number {
    if (tag === 'earliest') return 0;
    if (typeof tag === 'string' && tag.startsWith('0x')) return Number(BigInt(tag));
    return this.chain.head.number; // latest, pending, safe, finalized
  }

  private blockByTag(tag: unknown): Block | undefined {
    return this.chain.blocks[this.numberOf(tag)];
  }

  private stateAt(tag: unknown): WorldState {
    const b = this.blockByTag(tag);
    if (!b) throw rpcError(-32000, `header not found`);
    return b.post;
  }
}

interface CallArgs {
  from?: string;
  to?: string;
  value?: string;
  data?: Hex;
  input?: Hex;
}

interface LogFilter {
  address?: string | string[];
  topics?: Array<string | string[] | null>;
  fromBlock?: string;
  toBlock?: string;
}

const ZERO = `0x${'0'.repeat(40)}`;
const lower = (a: unknown) => String(a).toLowerCase() as Addr;

function topicsMatch(filter: Array<string | string[] | null>, topics: Hex[]): boolean {
  return filter.every((want, i) => {
    if (want === null || want === undefined) return true;
    const have = topics[i]?.toLowerCase();
    return Array.isArray(want) ? want.some((w) => w.toLowerCase() === have) : want.toLowerCase() === have;
  });
}

function formatLogBase(b: Block, m: MinedTx, i: number) {
  return { blockNumber: toHex(b.number), blockHash: b.hash, transactionHash: m.tx.hash, transactionIndex: toHex(i), removed: false };
}

function formatTx(m: MinedTx, b: Block | null, i: number) {
  const t = m.tx;
  return {
    hash: t.hash,
    from: t.from,
    to: t.to,
    nonce: toHex(t.nonce),
    value: toHex(t.value),
    gas: toHex(t.gas),
    gasPrice: toHex(t.gasPrice),
    input: t.data ?? '0x',
    type: '0x0',
    chainId: undefined,
    v: '0x1b',
    r: '0x1',
    s: '0x1',
    blockNumber: b ? toHex(b.number) : null,
    blockHash: b ? b.hash : null,
    transactionIndex: b ? toHex(i) : null,
  };
}

function formatBlock(b: Block, full: boolean) {
  return {
    number: toHex(b.number),
    hash: b.hash,
    parentHash: b.parentHash,
    timestamp: toHex(b.timestamp),
    baseFeePerGas: toHex(b.baseFee),
    gasLimit: toHex(30_000_000),
    gasUsed: toHex(b.txs.reduce((s, m) => s + m.gasUsed, 0n)),
    miner: ZERO,
    nonce: '0x0000000000000000',
    difficulty: '0x0',
    totalDifficulty: '0x0',
    extraData: '0x',
    logsBloom: `0x${'0'.repeat(512)}`,
    mixHash: `0x${'0'.repeat(64)}`,
    sha3Uncles: `0x${'0'.repeat(64)}`,
    stateRoot: `0x${'0'.repeat(64)}`,
    receiptsRoot: `0x${'0'.repeat(64)}`,
    transactionsRoot: `0x${'0'.repeat(64)}`,
    size: '0x0',
    uncles: [],
    transactions: full ? b.txs.map((m, i) => formatTx(m, b, i)) : b.txs.map((m) => m.tx.hash),
  };
}

function formatReceipt(b: Block, i: number) {
  const m = b.txs[i] as MinedTx;
  let logIndex = b.txs.slice(0, i).reduce((s, x) => s + x.logs.length, 0);
  return {
    transactionHash: m.tx.hash,
    transactionIndex: toHex(i),
    blockHash: b.hash,
    blockNumber: toHex(b.number),
    from: m.tx.from,
    to: m.tx.to,
    cumulativeGasUsed: toHex(b.txs.slice(0, i + 1).reduce((s, x) => s + x.gasUsed, 0n)),
    gasUsed: toHex(m.gasUsed),
    effectiveGasPrice: toHex(m.tx.gasPrice),
    contractAddress: null,
    logs: m.logs.map((l) => ({
      ...formatLogBase(b, m, i),
      address: l.address,
      topics: l.topics,
      data: l.data,
      logIndex: toHex(logIndex++),
    })),
    logsBloom: `0x${'0'.repeat(512)}`,
    status: m.success ? '0x1' : '0x0',
    type: '0x0',
  };
}
