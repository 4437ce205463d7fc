// Measures EvmChainAdapter.scanDeposits on a local anvil: builds BLOCKS blocks with a
// native transfer (to a watched address every 5th block, else to an unwatched one) and a
// USDT mint (to a watched address every 2nd block, else unwatched) in each, then scans
// them in 500-block windows.
// Usage (from apps/server): node --import tsx scripts/bench-chain-scan.ts [blocks=2000] [watched=1000]
import { generateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import { createWalletClient, encodeFunctionData, http } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { startAnvil } from '../src/chain/anvil.ts';
import { createEvmClient, EvmChainAdapter } from '../src/chain/evm.ts';
import { ANVIL_TEST_MNEMONIC, HdWallet } from '../src/chain/keys.ts';
import { startLocalChain } from '../src/chain/local-chain.ts';
import { testTokenAbi } from '../src/chain/test-token.ts';

const BLOCKS = Number(process.argv[2] ?? 2000);
const WATCHED = Number(process.argv[3] ?? 1000);
const WINDOW = 500n;

const t0 = performance.now();
const probe = await startAnvil();
const anvilMs = performance.now() - t0;
await probe.stop();

const wallet = new HdWallet(generateMnemonic(wordlist, 256));
const t1 = performance.now();
const chain = await startLocalChain({ hot: wallet.hotAccount().address });
const localMs = performance.now() - t1;
const client = createEvmClient(chain.url);
const rpc = (method: string, params: unknown[]) => client.request({ method, params } as never);
const watchedList = Array.from({ length: WATCHED }, (_, i) => wallet.depositAddress(i));
const watched = new Set<string>(watchedList);
const other = (i: number) => `0x${(0x1000000 + i).toString(16).padStart(40, '0')}` as const;

// build the chain: automine off, 2 txs per block, explicit nonce/gas/fees (no estimation round trips)
const faucet = mnemonicToAccount(ANVIL_TEST_MNEMONIC, { addressIndex: 0 });
const sender = createWalletClient({ account: faucet, chain: { ...foundry, id: chain.chainId }, transport: http(chain.url) });
let nonce = await client.getTransactionCount({ address: faucet.address });
const fees = { maxFeePerGas: 50_000_000_000n, maxPriorityFeePerGas: 1n };
await rpc('evm_setAutomine', [false]);
const start = (await client.getBlockNumber()) + 1n;
let nativeWatched = 0;
let tokenWatched = 0;
const t2 = performance.now();
for (let b = 0; b < BLOCKS; b++) {
  const nativeTo = b % 5 === 0 ? watchedList[b % WATCHED]! : other(b);
  const tokenTo = b % 2 === 0 ? watchedList[(b * 7) % WATCHED]! : other(b + 1_000_000);
  if (b % 5 === 0) nativeWatched++;
  if (b % 2 === 0) tokenWatched++;
  await Promise.all([
    sender.sendTransaction({ to: nativeTo, value: 1000n + BigInt(b), nonce: nonce++, gas: 21_000n, ...fees }),
    sender.sendTransaction({
      to: chain.tokens.USDT,
      data: encodeFunctionData({ abi: testTokenAbi, functionName: 'mint', args: [tokenTo, 1_000_000n] }),
      nonce: nonce++,
      gas: 100_000n,
      ...fees,
    }),
  ]);
  await rpc('evm_mine', []);
}
await rpc('evm_setAutomine', [true]);
const end = await client.getBlockNumber();
const buildMs = performance.now() - t2;

const assets = [
  { networkId: 1, contract: null },
  { networkId: 2, contract: chain.tokens.USDT },
];
async function measure(label: string, adapter: EvmChainAdapter, set: ReadonlySet<string>, a: typeof assets, expect: number) {
  const t = performance.now();
  let found = 0;
  for (let from = start; from <= end; from += WINDOW) {
    const to = from + WINDOW - 1n < end ? from + WINDOW - 1n : end;
    found += (await adapter.scanDeposits(from, to, set, a)).length;
  }
  const ms = performance.now() - t;
  const blocks = Number(end - start + 1n);
  console.log(
    `${label.padEnd(44)} ${ms.toFixed(0).padStart(6)} ms  ${((blocks / ms) * 1000).toFixed(0).padStart(7)} blocks/s  ${((ms / blocks) * 500).toFixed(0).padStart(5)} ms per 500 blocks  found ${found}${found === expect ? '' : ` (expected ${expect})`}`,
  );
}
const adapter = new EvmChainAdapter({ client, xpub: wallet.xpub });
const many = new Set<string>([...watched, ...Array.from({ length: 10_000 }, (_, i) => other(5_000_000 + i))]);
console.log(
  `anvil ready ${anvilMs.toFixed(0)} ms; local chain (anvil+2 tokens+funding) ${localMs.toFixed(0)} ms; built ${BLOCKS} blocks / ${BLOCKS * 2} txs in ${(buildMs / 1000).toFixed(1)} s; watched ${WATCHED}`,
);
await measure('native + token', adapter, watched, assets, nativeWatched + tokenWatched);
await measure('token only (getLogs, topic filter)', adapter, watched, [assets[1]!], tokenWatched);
await measure('token only, 11k watched (client-side filter)', adapter, many, [assets[1]!], tokenWatched);
await measure('native only (batched full blocks)', adapter, watched, [assets[0]!], nativeWatched);
await measure(
  'native only, unbatched client',
  new EvmChainAdapter({ client: createEvmClient(chain.url, { batchSize: 1 }), xpub: wallet.xpub }),
  watched,
  [assets[0]!],
  nativeWatched,
);
await chain.stop();
