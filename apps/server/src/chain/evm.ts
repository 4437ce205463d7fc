import {
  BlockNotFoundError,
  createPublicClient,
  encodeEventTopics,
  formatLog,
  getAddress,
  http,
  numberToHex,
  type PublicClient,
  parseAbiItem,
  parseEventLogs,
} from 'viem';
import type { ChainAdapter, ChainDeposit } from './adapter.ts';
import { XpubDeriver } from './keys.ts';

export type EvmAddress = `0x${string}`;

export interface EvmClientOptions {
  /** JSON-RPC requests issued in the same tick go out as one batch of at most this many; default 100 */
  batchSize?: number;
  /** polling interval of viem's wait/watch helpers in ms; default 1000 */
  pollingInterval?: number;
  /** per-request timeout in ms; default 10 000 */
  timeout?: number;
}

/**
 * A viem PublicClient over HTTP with JSON-RPC batching and no response cache (viem caches
 * the block number for 4 s by default, which makes a watcher miss blocks).
 */
export function createEvmClient(url: string, opts: EvmClientOptions = {}): PublicClient {
  return createPublicClient({
    transport: http(url, { batch: { batchSize: opts.batchSize ?? 100 }, timeout: opts.timeout ?? 10_000 }),
    cacheTime: 0,
    pollingInterval: opts.pollingInterval ?? 1000,
  });
}

const HEX_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/**
 * EIP-55: an all-lowercase or all-uppercase hex address carries no checksum and is accepted;
 * a mixed-case one must match its checksum. Requires the lowercase `0x` prefix.
 * (viem's `isAddress(s, {strict: true})` differs in one point: it refuses all-uppercase.)
 */
export function isValidEvmAddress(s: string): s is EvmAddress {
  if (typeof s !== 'string' || !HEX_ADDRESS.test(s)) return false;
  const hex = s.slice(2);
  if (hex === hex.toLowerCase() || hex === hex.toUpperCase()) return true;
  return getAddress(s) === s;
}

/** The EIP-55 checksummed form of a valid address (see isValidEvmAddress), else null. */
export function normalizeEvmAddress(s: string): EvmAddress | null {
  return isValidEvmAddress(s) ? getAddress(s) : null;
}

export const TRANSFER_EVENT = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');

export interface EvmChainAdapterOptions {
  client: PublicClient;
  /** account-level xpub of m/44'/60'/0' (HdWallet.xpub); deposit addresses are its children 0/i */
  xpub: string;
  /** getLogs block range per request; default 500 (split further when the node refuses a range) */
  logChunkSize?: number;
  /** getLogs requests in flight; default 4 */
  logConcurrency?: number;
  /** full blocks fetched per JSON-RPC batch for the native scan; default 100 */
  blockBatchSize?: number;
  /** up to this many watched addresses go into the getLogs topic filter; above, all Transfers are fetched and filtered here; default 1000 */
  topicFilterLimit?: number;
}

interface NativeTx {
  hash: `0x${string}`;
  from: EvmAddress;
  to: EvmAddress | null;
  value: bigint;
}

async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

function ranges(from: bigint, to: bigint, size: bigint): Array<[bigint, bigint]> {
  const out: Array<[bigint, bigint]> = [];
  for (let start = from; start <= to; start += size) {
    const end = start + size - 1n;
    out.push([start, end < to ? end : to]);
  }
  return out;
}

// Errors by which providers refuse a getLogs range or result size (Alchemy, Infura, QuickNode, geth...).
const RANGE_REFUSED = /range|limit|too many|too large|exceed|max(imum)? .*results|query returned more than|response size/i;

/** ChainAdapter for an EVM chain over a viem PublicClient. */
export class EvmChainAdapter implements ChainAdapter {
  readonly family = 'evm' as const;
  readonly client: PublicClient;
  private readonly deriver: XpubDeriver;
  private readonly logChunkSize: bigint;
  private readonly logConcurrency: number;
  private readonly blockBatchSize: number;
  private readonly topicFilterLimit: number;

  constructor(opts: EvmChainAdapterOptions) {
    this.client = opts.client;
    this.deriver = new XpubDeriver(opts.xpub);
    this.logChunkSize = BigInt(opts.logChunkSize ?? 500);
    this.logConcurrency = opts.logConcurrency ?? 4;
    this.blockBatchSize = opts.blockBatchSize ?? 100;
    this.topicFilterLimit = opts.topicFilterLimit ?? 1000;
  }

  chainId(): Promise<number> {
    return this.client.getChainId();
  }

  async head(): Promise<{ number: bigint; hash: string }> {
    const block = await this.client.getBlock({ blockTag: 'latest' });
    return { number: block.number, hash: block.hash };
  }

  async blockHeader(n: bigint): Promise<{ number: bigint; hash: string; parentHash: string } | null> {
    try {
      const block = await this.client.getBlock({ blockNumber: n });
      return { number: block.number, hash: block.hash, parentHash: block.parentHash };
    } catch (err) {
      if (err instanceof BlockNotFoundError) return null;
      throw err;
    }
  }

  deriveDepositAddress(index: number): string {
    return this.deriver.depositAddress(index);
  }

  normalizeAddress(s: string): string | null {
    return normalizeEvmAddress(s);
  }

  async scanDeposits(
    from: bigint,
    to: bigint,
    watched: ReadonlySet<string>,
    assets: ReadonlyArray<{ networkId: number; contract: string | null }>,
  ): Promise<ChainDeposit[]> {
    if (to < from || watched.size === 0 || assets.length === 0) return [];
    // the watched set holds our own addresses: no checksum verification (a keccak each), only the shape
    const watchedLower = new Set<string>();
    for (const a of watched) if (HEX_ADDRESS.test(a)) watchedLower.add(a.toLowerCase());
    if (watchedLower.size === 0) return [];
    let nativeNetworkId: number | null = null;
    const tokenNetworkIds = new Map<string, number>(); // lowercase contract -> networkId
    for (const asset of assets) {
      if (asset.contract === null) {
        nativeNetworkId ??= asset.networkId;
        continue;
      }
      const contract = normalizeEvmAddress(asset.contract);
      if (!contract) throw new Error(`network ${asset.networkId}: invalid token contract ${asset.contract}`);
      tokenNetworkIds.set(contract.toLowerCase(), asset.networkId);
    }
    const [tokens, native] = await Promise.all([
      tokenNetworkIds.size > 0 ? this.scanTokens(from, to, watchedLower, tokenNetworkIds) : [],
      nativeNetworkId !== null ? this.scanNative(from, to, watchedLower, nativeNetworkId) : [],
    ]);
    return [...native, ...tokens].sort((a, b) =>
      a.blockNumber !== b.blockNumber
        ? a.blockNumber < b.blockNumber
          ? -1
          : 1
        : a.logIndex !== b.logIndex
          ? a.logIndex - b.logIndex
          : a.txHash.localeCompare(b.txHash),
    );
  }

  private async scanTokens(
    from: bigint,
    to: bigint,
    watchedLower: ReadonlySet<string>,
    tokenNetworkIds: ReadonlyMap<string, number>,
  ): Promise<ChainDeposit[]> {
    const address = [...tokenNetworkIds.keys()] as EvmAddress[];
    const recipients = watchedLower.size <= this.topicFilterLimit ? ([...watchedLower] as EvmAddress[]) : undefined;
    const fetchRange = async (start: bigint, end: bigint): Promise<ChainDeposit[]> => {
      let logs: Awaited<ReturnType<typeof this.getTransferLogs>>;
      try {
        logs = await this.getTransferLogs(address, recipients, start, end);
      } catch (err) {
        if (end > start && RANGE_REFUSED.test(String((err as Error).message))) {
          const mid = start + (end - start) / 2n;
          return [...(await fetchRange(start, mid)), ...(await fetchRange(mid + 1n, end))];
        }
        throw err;
      }
      const out: ChainDeposit[] = [];
      for (const log of logs) {
        if (log.removed || log.blockHash === null || log.transactionHash === null || log.logIndex === null) continue;
        const { from: sender, to: recipient, value } = log.args;
        if (!watchedLower.has(recipient.toLowerCase()) || value <= 0n) continue;
        const networkId = tokenNetworkIds.get(log.address.toLowerCase());
        if (networkId === undefined) continue;
        out.push({
          networkId,
          txHash: log.transactionHash,
          logIndex: log.logIndex,
          blockNumber: log.blockNumber,
          blockHash: log.blockHash,
          from: getAddress(sender),
          to: getAddress(recipient),
          value,
        });
      }
      return out;
    };
    const parts = await mapLimit(ranges(from, to, this.logChunkSize), this.logConcurrency, ([s, e]) => fetchRange(s, e));
    return parts.flat();
  }

  /**
   * eth_getLogs for Transfer events, the recipients in the topic filter, decoded without
   * matching arguments again: viem's getLogs compares every decoded log with every recipient
   * (isAddressEqual per pair, 400 x 400 per chunk with 400 watched addresses), which cost more
   * than the request. The node filters by topic, and scanTokens checks each recipient.
   */
  private async getTransferLogs(address: EvmAddress[], recipients: EvmAddress[] | undefined, fromBlock: bigint, toBlock: bigint) {
    const topics = encodeEventTopics({ abi: [TRANSFER_EVENT], eventName: 'Transfer', args: recipients ? { to: recipients } : undefined });
    const logs = await this.client.request({
      method: 'eth_getLogs',
      params: [{ address, topics, fromBlock: numberToHex(fromBlock), toBlock: numberToHex(toBlock) }],
    });
    // strict: drops same-signature events that do not decode (e.g. ERC-721 Transfer)
    return parseEventLogs({ abi: [TRANSFER_EVENT], logs: logs.map((log) => formatLog(log)), strict: true });
  }

  private async scanNative(from: bigint, to: bigint, watchedLower: ReadonlySet<string>, networkId: number): Promise<ChainDeposit[]> {
    const candidates: Array<{ tx: NativeTx; blockHash: string; blockNumber: bigint }> = [];
    const batch = BigInt(this.blockBatchSize);
    // two batches in flight: the node works on one while the other is transferred and decoded
    await mapLimit(ranges(from, to, batch), 2, async ([s, e]) => {
      const numbers: bigint[] = [];
      for (let n = s; n <= e; n++) numbers.push(n);
      const blocks = await Promise.all(numbers.map((blockNumber) => this.client.getBlock({ blockNumber, includeTransactions: true })));
      for (const block of blocks) {
        for (const tx of block.transactions) {
          if (tx.to && tx.value > 0n && watchedLower.has(tx.to.toLowerCase())) {
            candidates.push({ tx, blockHash: block.hash, blockNumber: block.number });
          }
        }
      }
    });
    if (candidates.length === 0) return [];
    const receipts = await Promise.all(candidates.map(({ tx }) => this.client.getTransactionReceipt({ hash: tx.hash })));
    const out: ChainDeposit[] = [];
    candidates.forEach(({ tx, blockHash, blockNumber }, i) => {
      const receipt = receipts[i];
      if (receipt && receipt.blockHash !== blockHash) {
        // the block was replaced between getBlock and the receipt: let the caller rescan
        throw new Error(`chain reorganized during the scan at block ${blockNumber}; retry`);
      }
      if (receipt?.status !== 'success' || !tx.to) return;
      out.push({
        networkId,
        txHash: tx.hash,
        logIndex: -1,
        blockNumber,
        blockHash,
        from: getAddress(tx.from),
        to: getAddress(tx.to),
        value: tx.value,
      });
    });
    return out;
  }
}
