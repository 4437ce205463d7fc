/**
 * The signer process (docs/decisions/039-separate-signer.md): the only process that holds the
 * wallet mnemonic. Configured by its own environment, never by the API:
 *   SIGNER_MNEMONIC_FILE  the mnemonic (or SIGNER_MNEMONIC; or, embedded only,
 *                         SIGNER_DATA_DIR/wallet-mnemonic generated when SIGNER_GENERATE=on)
 *   SIGNER_SECRET_FILE    the shared HMAC secret (0600, 64 hex characters)
 *   SIGNER_POLICY_FILE    the policy (JSON: chains, token contracts, cold address, limits); SIGHUP re-reads it
 *   SIGNER_JOURNAL_FILE   the append-only journal of signatures (JSONL, hash-chained)
 *   SIGNER_LISTEN         host:port (default 127.0.0.1:7400; port 0 picks a free one)
 * Prints one JSON line {"ready":true,"port":N} when it listens (the embedded server waits for it)
 * and {"policy":"loaded"} after each SIGHUP.
 */
import { join } from 'node:path';
import { loadMnemonic, MnemonicKeyring } from '../chain/keys.ts';
import { readSecretFile } from './channel.ts';
import { SignerJournal } from './journal.ts';
import { readPolicy } from './policy.ts';
import { createSignerServer, listen } from './server.ts';
import { SignerService } from './service.ts';

function required(name: string): string {
  const v = process.env[name]?.trim();
  if (!v) throw new Error(`${name} is required`);
  return v;
}

const log = {
  info: (obj: object, msg: string) => console.error(JSON.stringify({ level: 'info', msg, ...obj })),
  warn: (obj: object, msg: string) => console.error(JSON.stringify({ level: 'warn', msg, ...obj })),
};

async function main() {
  const dataDir = process.env.SIGNER_DATA_DIR?.trim() || '.';
  const loaded = loadMnemonic({
    mnemonic: process.env.SIGNER_MNEMONIC,
    mnemonicFile: process.env.SIGNER_MNEMONIC_FILE?.trim() || undefined,
    dataDir,
    allowGenerate: process.env.SIGNER_GENERATE === 'on',
  });
  if (loaded.generated)
    log.warn({ file: join(dataDir, 'wallet-mnemonic') }, 'generated a new HD wallet mnemonic (embedded mode; back it up)');
  const policyFile = required('SIGNER_POLICY_FILE');
  const policy = readPolicy(policyFile, loaded.mnemonic);
  const keys = new MnemonicKeyring(loaded.mnemonic);
  const secret = readSecretFile(required('SIGNER_SECRET_FILE'));
  const journal = new SignerJournal(process.env.SIGNER_JOURNAL_FILE?.trim() || join(dataDir, 'signer-journal.jsonl'), Date.now());
  const service = new SignerService(keys, policy, journal);
  const [host, port] = (process.env.SIGNER_LISTEN?.trim() || '127.0.0.1:7400').split(/:(?=\d+$)/) as [string, string];
  const server = createSignerServer(service, secret, log);
  const bound = await listen(server, host, Number(port));
  process.on('SIGHUP', () => {
    try {
      service.setPolicy(readPolicy(policyFile, loaded.mnemonic));
      log.info({ file: policyFile }, 'signer policy re-read');
      process.stdout.write(`${JSON.stringify({ policy: 'loaded' })}\n`);
    } catch (err) {
      log.warn({ err: (err as Error).message }, 'signer policy not re-read; the previous one stays');
      process.stdout.write(`${JSON.stringify({ policy: 'refused' })}\n`);
    }
  });
  const stop = () =>
    server.close(() => {
      journal.close();
      process.exit(0);
    });
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  // An embedded signer dies with its parent (the IPC channel closes when the server goes).
  process.on('disconnect', stop);
  log.info({ host, port: bound, hot: keys.hotAddress, chains: policy.chains.map((c) => c.chainId) }, 'signer listening');
  process.stdout.write(`${JSON.stringify({ ready: true, port: bound })}\n`);
}

main().catch((err) => {
  console.error(`[signer] failed to start: ${(err as Error).message}`);
  process.exit(1);
});
