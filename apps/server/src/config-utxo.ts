import { normalizeAccountXpub } from './chain/utxo/address.ts';
import { UTXO_NETWORK_NAMES, type UtxoParams, utxoParamsByName } from './chain/utxo/params.ts';

/**
 * The UTXO chain a server serves (docs/decisions/048-utxo-family.md): a Bitcoin Core or
 * Litecoin Core node (UTXO_RPC_URL, credentials in the URL), which network it runs
 * (UTXO_NETWORK) and the BIP-84 account key deposits derive from (UTXO_ACCOUNT_XPUB). Unset:
 * in embedded mode a local litecoind regtest node when it is on the PATH (LOCAL_UTXO).
 */
export interface UtxoNodeSetting {
  url: string;
  user: string;
  password: string;
  params: UtxoParams;
  /** m/84'/coin'/0' in the xpub/tpub form */
  accountXpub: string;
}

interface UtxoEnv {
  UTXO_RPC_URL?: string;
  UTXO_NETWORK?: string;
  UTXO_ACCOUNT_XPUB?: string;
}

/** UTXO_RPC_URL with its companions, or null when unset; a ConfigError names what is missing. */
export function utxoNode(env: UtxoEnv, fail: (message: string) => Error): UtxoNodeSetting | null {
  if (!env.UTXO_RPC_URL) {
    if (env.UTXO_NETWORK || env.UTXO_ACCOUNT_XPUB) throw fail('UTXO_NETWORK and UTXO_ACCOUNT_XPUB need UTXO_RPC_URL (the node to watch)');
    return null;
  }
  const url = new URL(env.UTXO_RPC_URL);
  if (!url.username || !url.password) {
    throw fail('UTXO_RPC_URL: give the node\'s RPC user and password in the URL, e.g. "http://user:pass@127.0.0.1:9332"');
  }
  const params = env.UTXO_NETWORK ? utxoParamsByName(env.UTXO_NETWORK) : undefined;
  if (!params) throw fail(`UTXO_NETWORK is required with UTXO_RPC_URL: one of ${UTXO_NETWORK_NAMES.join(', ')}`);
  if (!env.UTXO_ACCOUNT_XPUB) {
    throw fail(`UTXO_ACCOUNT_XPUB is required with UTXO_RPC_URL: the account key m/84'/${params.coinType}'/0' (xpub/zpub or tpub/vpub)`);
  }
  let accountXpub: string;
  try {
    accountXpub = normalizeAccountXpub(env.UTXO_ACCOUNT_XPUB, params);
  } catch (err) {
    throw fail(`UTXO_ACCOUNT_XPUB is not an account public key of ${params.label}: ${(err as Error).message}`);
  }
  const origin = `${url.protocol}//${url.host}${url.pathname === '/' ? '' : url.pathname}`;
  return {
    url: origin,
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
    params,
    accountXpub,
  };
}

export { UTXO_NETWORK_NAMES };
