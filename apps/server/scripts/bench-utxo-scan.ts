/**
 * Scan speed of the UTXO adapter on a throw-away litecoind regtest node: mines BLOCKS blocks
 * with TXS_PER_BLOCK payments each (half of them to watched deposit addresses), then times
 * UtxoChainAdapter.scanDeposits over them (getblock verbosity 2, batched).
 *   node --import tsx apps/server/scripts/bench-utxo-scan.ts [blocks] [txsPerBlock]
 */
import { UtxoChainAdapter } from '../src/chain/utxo/adapter.ts';
import { utxoAccountXpub } from '../src/chain/utxo/address.ts';
import { UTXO_NETWORKS } from '../src/chain/utxo/params.ts';
import { startRegtest } from '../src/chain/utxo/regtest.ts';

const BLOCKS = Number(process.argv[2] ?? 200);
const TXS_PER_BLOCK = Number(process.argv[3] ?? 5);
const WATCHED = 20;
const params = UTXO_NETWORKS['litecoin-regtest'];

const node = await startRegtest();
try {
  const adapter = new UtxoChainAdapter(node.rpc, params, utxoAccountXpub(new Uint8Array(64).fill(7), params));
  const watched = Array.from({ length: WATCHED }, (_, i) => adapter.deriveDepositAddress(i));
  const faucet = node.rpc.wallet('faucet');
  const elsewhere = String(await faucet.call('getnewaddress', ['', 'bech32']));
  // Enough mature coinbases that every block's payments have confirmed coins to spend.
  await node.mine(Math.ceil(BLOCKS / 10));
  const from = Number((await adapter.head()).number) + 1;
  const t0 = performance.now();
  let paid = 0;
  for (let b = 0; b < BLOCKS; b++) {
    for (let k = 0; k < TXS_PER_BLOCK; k++) {
      const to = k % 2 === 0 ? watched[(b * TXS_PER_BLOCK + k) % WATCHED]! : elsewhere;
      await node.send(to, '0.001');
      if (to !== elsewhere) paid++;
    }
    await node.mine(1);
  }
  const to = Number((await adapter.head()).number);
  console.log(`built ${to - from + 1} blocks with ${BLOCKS * TXS_PER_BLOCK} payments in ${Math.round(performance.now() - t0)} ms`);

  const assets = [{ networkId: 1, contract: null }];
  for (const run of [1, 2]) {
    const t1 = performance.now();
    const found = await adapter.scanDeposits(BigInt(from), BigInt(to), new Set(watched), assets);
    const ms = performance.now() - t1;
    const rate = Math.round(((to - from + 1) / ms) * 1000);
    console.log(
      `run ${run}: scanned ${to - from + 1} blocks in ${Math.round(ms)} ms (${rate} blocks/s), ${found.length} deposits (expected ${paid})`,
    );
    if (found.length !== paid) process.exitCode = 1;
  }
} finally {
  await node.stop();
}
