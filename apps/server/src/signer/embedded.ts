import { type ChildProcess, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { ensureSecretFile } from './channel.ts';

/** How long the embedded server waits for its signer child to listen or re-read its policy (milliseconds). */
const CHILD_READY_TIMEOUT_MS = 20_000;
const serverRoot = resolve(import.meta.dirname, '../..');

export const SIGNER_SECRET_FILE_NAME = 'signer-secret';
export const SIGNER_POLICY_FILE_NAME = 'signer-policy.json';
export const SIGNER_JOURNAL_FILE_NAME = 'signer-journal.jsonl';

/** A policy as JSON (amounts already decimal strings), what the child reads from its file. */
export type PolicyJson = { chains: Record<string, unknown>[]; utxoChains?: Record<string, unknown>[] };

export interface EmbeddedSignerOptions {
  dataDir: string;
  /** the embedded server's own WALLET_MNEMONIC / _FILE, passed on to the child (the server does not read them) */
  mnemonic?: string;
  mnemonicFile?: string;
  policy: PolicyJson;
  /** where the child's log lines go (its stderr); default: this process's stderr */
  stderr?: 'inherit' | 'ignore';
}

export interface EmbeddedSigner {
  url: string;
  secretFile: string;
  /** rewrites the policy file and has the child re-read it (SIGHUP); resolves when it did */
  reload(policy: PolicyJson): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The bundle (`npm start`, dist/main.js) starts dist/signer.js; sources under tsx (dev, tests)
 * start src/signer/main.ts through tsx.
 */
function signerCommand(): string[] {
  if (process.argv[1]?.endsWith(join('dist', 'main.js'))) return [join(serverRoot, 'dist/signer.js')];
  return ['--import', 'tsx', join(serverRoot, 'src/signer/main.ts')];
}

/**
 * Embedded mode (`npm start`): the signer runs as a child process on a free loopback port, with
 * the mnemonic in DATA_DIR (generated on first start, as before) and a generated secret, so
 * the server process itself never holds a private key.
 */
export async function startEmbeddedSigner(opts: EmbeddedSignerOptions): Promise<EmbeddedSigner> {
  const secretFile = join(opts.dataDir, SIGNER_SECRET_FILE_NAME);
  ensureSecretFile(secretFile);
  const policyFile = join(opts.dataDir, SIGNER_POLICY_FILE_NAME);
  writeFileSync(policyFile, JSON.stringify(opts.policy, null, 2), { mode: 0o600 });
  const child = spawn(process.execPath, signerCommand(), {
    cwd: serverRoot,
    stdio: ['ignore', 'pipe', opts.stderr ?? 'inherit', 'ipc'],
    env: {
      PATH: process.env.PATH,
      SIGNER_DATA_DIR: opts.dataDir,
      SIGNER_GENERATE: opts.mnemonic || opts.mnemonicFile ? 'off' : 'on',
      ...(opts.mnemonic && { SIGNER_MNEMONIC: opts.mnemonic }),
      ...(opts.mnemonicFile && { SIGNER_MNEMONIC_FILE: opts.mnemonicFile }),
      SIGNER_SECRET_FILE: secretFile,
      SIGNER_POLICY_FILE: policyFile,
      SIGNER_JOURNAL_FILE: join(opts.dataDir, SIGNER_JOURNAL_FILE_NAME),
      SIGNER_LISTEN: '127.0.0.1:0',
    },
  });
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const waiting: ((line: Record<string, unknown>) => void)[] = [];
  lines.on('line', (line) => {
    try {
      waiting.shift()?.(JSON.parse(line) as Record<string, unknown>);
    } catch {
      // not one of the child's protocol lines
    }
  });
  const next = (what: string) => nextLine(child, waiting, what);
  const ready = await next('listen');
  if (ready.ready !== true) throw new Error('signer child did not start');
  return {
    url: `http://127.0.0.1:${ready.port}`,
    secretFile,
    async reload(policy) {
      writeFileSync(policyFile, JSON.stringify(policy, null, 2), { mode: 0o600 });
      const answer = next('re-read its policy');
      child.kill('SIGHUP');
      if ((await answer).policy !== 'loaded') throw new Error('signer child refused the new policy (see its log)');
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

function nextLine(
  child: ChildProcess,
  waiting: ((line: Record<string, unknown>) => void)[],
  what: string,
): Promise<Record<string, unknown>> {
  return new Promise((resolveLine, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`signer child did not ${what} within ${CHILD_READY_TIMEOUT_MS} ms`)),
      CHILD_READY_TIMEOUT_MS,
    );
    const onExit = (code: number | null) => reject(new Error(`signer child exited (${code}) before it could ${what}; see its log`));
    child.once('exit', onExit);
    waiting.push((line) => {
      clearTimeout(timer);
      child.off('exit', onExit);
      resolveLine(line);
    });
  });
}
