// Signing latency over the signer's channel (docs/decisions/039-separate-signer.md): 1,000
// payouts signed one after the other by a signer child process (HTTP on loopback, HMAC both
// ways, policy check, journal line fsync'd), against the same signatures in process.
// Run: node --import tsx scripts/bench-signer.ts [count]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import type { LocalAccount } from 'viem';
import { MnemonicKeyring } from '../src/chain/keys.ts';
import { readSecretFile } from '../src/signer/channel.ts';
import { SignerClient, SignerKeyring } from '../src/signer/client.ts';
import { startEmbeddedSigner } from '../src/signer/embedded.ts';

const count = Number(process.argv[2] ?? 1000);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-bench-signer-'));
const mnemonicFile = path.join(dir, 'mnemonic');
const mnemonic = generateMnemonic(wordlist, 256);
fs.writeFileSync(mnemonicFile, mnemonic, { mode: 0o600 });
const big = (10n ** 30n).toString();
const policy = {
  chains: [
    {
      chainId: 31337,
      coldAddress: null,
      maxFeeWei: big,
      topUpMaxWei: big,
      topUpPerDayWei: big,
      native: { code: 'ETH', perTxMax: big, perDayMax: big },
      tokens: [],
    },
  ],
};

async function measure(account: LocalAccount): Promise<number[]> {
  const times: number[] = [];
  for (let nonce = 0; nonce < count; nonce++) {
    const start = process.hrtime.bigint();
    await account.signTransaction({
      type: 'legacy',
      chainId: 31337,
      nonce,
      to: '0x8ba1f109551bD432803012645Ac136ddd64DBA72',
      value: 10n ** 15n,
      gas: 21_000n,
      gasPrice: 10n ** 9n,
    });
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return times.sort((a, b) => a - b);
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!.toFixed(2);

const signer = await startEmbeddedSigner({ dataDir: dir, mnemonicFile, policy, stderr: 'ignore' });
try {
  const ring = await SignerKeyring.connect(new SignerClient(signer.url, readSecretFile(signer.secretFile)));
  const remote = await measure(ring.hotAccount());
  const local = await measure(new MnemonicKeyring(mnemonic).hotAccount());
  console.log(`signs: ${count} sequential legacy payouts`);
  console.log(
    `signer child (HTTP + HMAC + policy + fsync'd journal): p50 ${pct(remote, 50)} ms, p99 ${pct(remote, 99)} ms, max ${pct(remote, 100)} ms`,
  );
  console.log(
    `in process (no signer):                              p50 ${pct(local, 50)} ms, p99 ${pct(local, 99)} ms, max ${pct(local, 100)} ms`,
  );
} finally {
  await signer.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}
