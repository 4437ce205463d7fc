import { z } from 'zod';

/**
 * The EVM chains a server serves (docs/decisions/050-several-networks.md): EVM_RPC_URL names one
 * node whose chain id is read from it; EVM_RPC_URLS names several, each with the chain id it
 * must answer ("1=https://eth.example,42161=https://arb.example"). Unset both: embedded mode.
 */
export interface EvmChainSetting {
  /** The chain id the node must answer (checked at start); null: whatever it answers (EVM_RPC_URL). */
  chainId: number | null;
  url: string;
}

/** networks.chain_id is a PostgreSQL integer. */
const MAX_CHAIN_ID = 2_147_483_647;
const RPC_PROTOCOLS = ['http://', 'https://', 'ws://', 'wss://'];

/** EVM_RPC_URLS as a list of chains; an issue per bad entry, each naming the entry. */
export function parseEvmRpcUrls(value: string, ctx: z.RefinementCtx): EvmChainSetting[] {
  if (value === '') return [];
  const chains: EvmChainSetting[] = [];
  const problems: string[] = [];
  for (const raw of value.split(',')) {
    const entry = raw.trim();
    const at = entry.indexOf('=');
    const id = at > 0 ? entry.slice(0, at).trim() : '';
    const url = at > 0 ? entry.slice(at + 1).trim() : '';
    const chainId = /^\d{1,10}$/.test(id) ? Number(id) : 0;
    if (chainId < 1 || chainId > MAX_CHAIN_ID) {
      problems.push(`${JSON.stringify(entry)} must be chainId=url with a chain id of 1-${MAX_CHAIN_ID}`);
    } else if (!RPC_PROTOCOLS.some((p) => url.startsWith(p))) {
      problems.push(`${JSON.stringify(entry)}: the URL must start with ${RPC_PROTOCOLS.join(' or ')}`);
    } else if (chains.some((c) => c.chainId === chainId)) {
      problems.push(`chain ${chainId} is listed twice (one node per chain)`);
    } else {
      chains.push({ chainId, url });
    }
  }
  if (problems.length === 0) return chains;
  ctx.addIssue({ code: 'custom', message: `${problems.join('; ')} (e.g. "1=https://eth.example,42161=https://arb.example")` });
  return z.NEVER;
}

/** What the checks below read of the parsed environment. */
interface ChainEnv {
  EVM_RPC_URL?: string;
  EVM_RPC_URLS: EvmChainSetting[];
  SIGNER_URL?: string;
  SIGNER_SECRET_FILE?: string;
  WALLET_MNEMONIC?: string;
  WALLET_MNEMONIC_FILE?: string;
  DATABASE_URL?: string;
  WORKERS: number;
  CHAIN: 'on' | 'off';
}

/** The configured chain nodes (none: embedded mode, the local chains). */
export function evmChains(env: ChainEnv, fail: (message: string) => Error): EvmChainSetting[] {
  if (env.EVM_RPC_URL && env.EVM_RPC_URLS.length > 0) {
    throw fail(
      'Invalid configuration:\n  EVM_RPC_URLS: set either EVM_RPC_URL (one chain) or EVM_RPC_URLS (several, chainId=url), not both',
    );
  }
  return env.EVM_RPC_URL ? [{ chainId: null, url: env.EVM_RPC_URL }] : env.EVM_RPC_URLS;
}

/**
 * With a real chain (EVM_RPC_URL or EVM_RPC_URLS) the keys live in the separate signer only:
 * the server gets its URL and the channel's secret, and a mnemonic in its own configuration is refused.
 */
export function checkSigner(env: ChainEnv, nodes: number, fail: (message: string) => Error): void {
  const problems: string[] = [];
  if (env.SIGNER_URL && !env.SIGNER_SECRET_FILE)
    problems.push('SIGNER_SECRET_FILE: required with SIGNER_URL (the shared HMAC secret, a 0600 file)');
  if (nodes > 0) {
    if (!env.SIGNER_URL) problems.push('SIGNER_URL: required with EVM_RPC_URL(S) (the signer holds the keys; see docs/operations.md)');
    if (env.WALLET_MNEMONIC || env.WALLET_MNEMONIC_FILE) {
      problems.push(
        'WALLET_MNEMONIC: refused with EVM_RPC_URL(S); give the mnemonic to the signer (SIGNER_MNEMONIC_FILE), not to the server',
      );
    }
  }
  if (problems.length > 0) throw fail(`Invalid configuration:\n  ${problems.join('\n  ')}`);
}

/**
 * Several API processes share what one process would own: the database (PGlite in DATA_DIR
 * opens in one process only) and the chain (the embedded anvils run inside the process that
 * starts them). Refused at start with the reason, rather than failing in a worker later.
 */
export function checkWorkers(env: ChainEnv, nodes: number, fail: (message: string) => Error): void {
  if (env.WORKERS === 1) return;
  if (!env.DATABASE_URL) {
    throw fail(
      `Invalid configuration:\n  WORKERS: ${env.WORKERS} processes need PostgreSQL (DATABASE_URL); the embedded database (PGlite) serves one process, so set WORKERS=1 or DATABASE_URL`,
    );
  }
  if (env.CHAIN === 'on' && nodes === 0) {
    throw fail(
      `Invalid configuration:\n  WORKERS: ${env.WORKERS} processes cannot share the embedded local chains (they run inside one process); set EVM_RPC_URL(S) to nodes, or CHAIN=off`,
    );
  }
}
