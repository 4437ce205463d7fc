import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createWalletClient, defineChain, type Hash, http, type PublicClient, parseEther, type TransactionReceipt } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { type AnvilInstance, startAnvil } from './anvil.ts';
import { createEvmClient, type EvmAddress, isValidEvmAddress } from './evm.ts';
import { ANVIL_TEST_MNEMONIC, LOCAL_L2_CHAIN_ID } from './keys.ts';
import { testTokenAbi, testTokenBytecode } from './test-token.ts';

export type LocalTokenSymbol = 'USDT' | 'USDC';
export type LocalAsset = 'ETH' | LocalTokenSymbol;

/** The test tokens every local chain has (6 decimals, like the real ones). */
export const LOCAL_TOKENS: Readonly<Record<LocalTokenSymbol, { name: string; symbol: LocalTokenSymbol; decimals: number }>> = {
  USDT: { name: 'Tether USD', symbol: 'USDT', decimals: 6 },
  USDC: { name: 'USD Coin', symbol: 'USDC', decimals: 6 },
};

/** What the hot wallet gets when a chain is set up (or when a new hot address shows up). */
export const HOT_FUNDING = { ETH: parseEther('1000'), tokens: 1_000_000n * 10n ** 6n } as const;

export const LOCAL_CHAIN_ID = 31337;
export { LOCAL_L2_CHAIN_ID };
/** Seconds per block of the embedded L2 (shorter than the first chain's, as an L2's are). */
export const LOCAL_L2_BLOCK_TIME = 1;
export const ANVIL_STATE_FILE = 'anvil-state.json';
export const LOCAL_CHAIN_FILE = 'local-chain.json';

/** A local chain's files in DATA_DIR: the first chain's keep their names, another's carry its id. */
export function localChainFiles(chainId: number): { state: string; chain: string } {
  if (chainId === LOCAL_CHAIN_ID) return { state: ANVIL_STATE_FILE, chain: LOCAL_CHAIN_FILE };
  return { state: `anvil-state-${chainId}.json`, chain: `local-chain-${chainId}.json` };
}

export interface LocalChainOptions {
  /** default LOCAL_CHAIN_ID (31337) */
  chainId?: number;
  /** state in DATA_DIR/anvil-state.json and token addresses in DATA_DIR/local-chain.json; unset = in memory */
  dataDir?: string;
  /** seconds per block (interval mining); unset = a block per transaction */
  blockTime?: number;
  /** the hot wallet address to fund (1000 ETH, 1,000,000 USDT and USDC) */
  hot: EvmAddress;
}

export interface LocalChain {
  url: string;
  chainId: number;
  tokens: { USDT: EvmAddress; USDC: EvmAddress };
  /** Sends ETH or mints tokens to `to` from the faucet account; resolves with the tx hash once the node accepted it. */
  faucet(to: EvmAddress, asset: LocalAsset, amount: bigint /* base units */): Promise<Hash>;
  stop(): Promise<void>;
  /** the faucet / token owner: anvil's first prefunded account (test mnemonic, index 0) */
  faucetAddress: EvmAddress;
  /** public client on this chain (cacheTime 0, 50 ms polling) */
  client: PublicClient;
  /** Owner-only TestToken switch: transfers from or to `address` revert while blocked. Resolves once mined. */
  setBlocked(token: LocalTokenSymbol, address: EvmAddress, blocked: boolean): Promise<TransactionReceipt>;
  /** anvil_mine: `blocks` new blocks now (default 1) */
  mine(blocks?: number): Promise<void>;
  /**
   * The transactions that funded the hot wallet (ETH sent, tokens minted), booked as the
   * operator's float at start (chain/funding.ts bookGenesisFunding; docs/decisions/038).
   */
  hotFunding: Hash[];
}

interface LocalChainFile {
  chainId: number;
  tokens: { USDT: EvmAddress; USDC: EvmAddress };
  /** hot wallet addresses already funded on this chain state */
  funded: EvmAddress[];
  /** the funding transactions per hot wallet address (lower case) */
  fundings?: Record<string, Hash[]>;
}

function readChainFile(path: string): LocalChainFile | null {
  if (!existsSync(path)) return null;
  try {
    const data = JSON.parse(readFileSync(path, 'utf8')) as Partial<LocalChainFile>;
    const { USDT, USDC } = data.tokens ?? {};
    if (typeof data.chainId !== 'number' || !USDT || !USDC || !isValidEvmAddress(USDT) || !isValidEvmAddress(USDC)) {
      return null;
    }
    return {
      chainId: data.chainId,
      tokens: { USDT, USDC },
      funded: Array.isArray(data.funded) ? data.funded : [],
      fundings: typeof data.fundings === 'object' && data.fundings !== null ? data.fundings : {},
    };
  } catch {
    return null;
  }
}

function writeChainFile(path: string, data: LocalChainFile): void {
  const tmp = `${path}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(data, null, 2)}\n`);
  renameSync(tmp, path);
}

/**
 * Starts the embedded local chain: anvil (state kept in DATA_DIR when given), the two test
 * tokens deployed (or found again after a restart), the hot wallet funded.
 */
export async function startLocalChain(opts: LocalChainOptions): Promise<LocalChain> {
  if (!isValidEvmAddress(opts.hot)) throw new Error(`startLocalChain: invalid hot wallet address ${opts.hot}`);
  if (opts.dataDir) mkdirSync(opts.dataDir, { recursive: true });
  const chainId = opts.chainId ?? LOCAL_CHAIN_ID;
  const anvil = await startAnvil({
    chainId,
    blockTime: opts.blockTime,
    stateFile: opts.dataDir ? join(opts.dataDir, localChainFiles(chainId).state) : undefined,
  });
  try {
    return await setUp(anvil, opts);
  } catch (err) {
    await anvil.stop();
    throw err;
  }
}

async function setUp(anvil: AnvilInstance, opts: LocalChainOptions): Promise<LocalChain> {
  const chain = defineChain({
    id: anvil.chainId,
    name: 'Coffer local (anvil)',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [anvil.url] } },
  });
  const client = createEvmClient(anvil.url, { pollingInterval: 50 });
  const account = mnemonicToAccount(ANVIL_TEST_MNEMONIC, { addressIndex: 0 });
  const wallet = createWalletClient({ account, chain, transport: http(anvil.url), cacheTime: 0, pollingInterval: 50 });
  const rpc = (method: string, params: unknown[]) => client.request({ method, params } as never) as Promise<unknown>;
  const mine = async (blocks = 1) => {
    await rpc('anvil_mine', [`0x${blocks.toString(16)}`]);
  };
  // with interval mining, mine at once instead of waiting up to blockTime per step
  const settle = async (hashes: Hash[]) => {
    if (opts.blockTime !== undefined) await mine(1);
    const receipts = await Promise.all(hashes.map((hash) => client.waitForTransactionReceipt({ hash })));
    const failed = receipts.find((r) => r.status !== 'success');
    if (failed) throw new Error(`local chain setup: transaction ${failed.transactionHash} reverted`);
    return receipts;
  };

  // the faucet never runs dry
  if ((await client.getBalance({ address: account.address })) < parseEther('2000')) {
    await rpc('anvil_setBalance', [account.address, `0x${parseEther('10000').toString(16)}`]);
  }

  const filePath = opts.dataDir ? join(opts.dataDir, localChainFiles(anvil.chainId).chain) : null;
  let state = filePath ? readChainFile(filePath) : null;
  if (state && !(await tokensPresent(client, state.tokens))) state = null;
  if (!state || state.chainId !== anvil.chainId) {
    const hashes: Hash[] = [];
    for (const token of [LOCAL_TOKENS.USDT, LOCAL_TOKENS.USDC]) {
      hashes.push(
        await wallet.deployContract({
          abi: testTokenAbi,
          bytecode: testTokenBytecode,
          args: [token.name, token.symbol, token.decimals],
        }),
      );
    }
    const [usdt, usdc] = await settle(hashes);
    if (!usdt?.contractAddress || !usdc?.contractAddress) throw new Error('local chain setup: token deployment failed');
    state = { chainId: anvil.chainId, tokens: { USDT: usdt.contractAddress, USDC: usdc.contractAddress }, funded: [] };
  }
  const tokens = state.tokens;

  if (!state.funded.some((a) => a.toLowerCase() === opts.hot.toLowerCase())) {
    // a real transfer, not anvil_setBalance: the float is booked from a transaction hash
    const hashes: Hash[] = [await wallet.sendTransaction({ to: opts.hot, value: HOT_FUNDING.ETH })];
    for (const symbol of ['USDT', 'USDC'] as const) {
      hashes.push(
        await wallet.writeContract({
          address: tokens[symbol],
          abi: testTokenAbi,
          functionName: 'mint',
          args: [opts.hot, HOT_FUNDING.tokens],
        }),
      );
    }
    await settle(hashes);
    state.funded.push(opts.hot);
    state.fundings = { ...state.fundings, [opts.hot.toLowerCase()]: hashes };
  }
  const hotFunding = state.fundings?.[opts.hot.toLowerCase()] ?? [];
  if (filePath) writeChainFile(filePath, state);

  // one transaction at a time from the faucet account: each takes the next pending nonce
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = queue.then(fn, fn);
    queue = run.catch(() => undefined);
    return run;
  };

  const faucet = (to: EvmAddress, asset: LocalAsset, amount: bigint): Promise<Hash> => {
    if (!isValidEvmAddress(to)) return Promise.reject(new Error(`faucet: invalid address ${to}`));
    if (amount <= 0n) return Promise.reject(new Error('faucet: amount must be positive'));
    return serial(() => {
      if (asset === 'ETH') return wallet.sendTransaction({ to, value: amount });
      const address = tokens[asset];
      if (!address) throw new Error(`faucet: unknown asset ${asset}`);
      return wallet.writeContract({ address, abi: testTokenAbi, functionName: 'mint', args: [to, amount] });
    });
  };

  const setBlocked = async (token: LocalTokenSymbol, address: EvmAddress, blocked: boolean) => {
    const hash = await serial(() =>
      wallet.writeContract({ address: tokens[token], abi: testTokenAbi, functionName: 'setBlocked', args: [address, blocked] }),
    );
    return client.waitForTransactionReceipt({ hash });
  };

  return {
    url: anvil.url,
    chainId: anvil.chainId,
    tokens: { ...tokens },
    faucet,
    stop: () => anvil.stop(),
    faucetAddress: account.address,
    client,
    setBlocked,
    mine,
    hotFunding: [...hotFunding],
  };
}

async function tokensPresent(client: PublicClient, tokens: LocalChainFile['tokens']): Promise<boolean> {
  for (const symbol of ['USDT', 'USDC'] as const) {
    const code = await client.getCode({ address: tokens[symbol] });
    if (!code || code === '0x') return false;
    try {
      const onChain = await client.readContract({ address: tokens[symbol], abi: testTokenAbi, functionName: 'symbol' });
      if (onChain !== symbol) return false;
    } catch {
      return false;
    }
  }
  return true;
}
