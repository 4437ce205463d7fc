import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { assertMnemonicAllowed, type Keyring, loadMnemonic, MNEMONIC_FILE_NAME, MnemonicKeyring } from '../chain/keys.ts';
import { readSecretFile } from './channel.ts';
import { UTXO_NETWORKS } from '../chain/utxo/params.ts';
import { SignerClient, SignerKeyring } from './client.ts';
import { type PolicyJson, startEmbeddedSigner } from './embedded.ts';

export interface OpenedKeys {
  wallet: Keyring;
  /** Throws unless these keys may serve `chainId` (the signer's policy lists it; no public test mnemonic off local chains). */
  checkChain(chainId: number): void;
  /** embedded child signer: rewrites its policy from the networks table (after the local chain set the token contracts) */
  refreshPolicy?(): Promise<void>;
  stop(): Promise<void>;
}

interface Log {
  warn(obj: object, msg: string): void;
}

/**
 * Where the chain workers' keys come from (docs/decisions/039-separate-signer.md): the
 * configured signer (SIGNER_URL, required with EVM_RPC_URL), else in embedded mode a signer
 * child process, or with SIGNER=in-process (tests) or without a chain the mnemonic here.
 */
export async function openKeys(opts: {
  config: Config;
  database: Database;
  log: Log;
  connect: boolean;
  /** The embedded local chains (anvil) the embedded signer's policy covers. */
  embeddedChainIds: readonly number[];
}): Promise<OpenedKeys> {
  const { config, database, log } = opts;
  if (config.SIGNER_URL) {
    const client = new SignerClient(config.SIGNER_URL, readSecretFile(config.SIGNER_SECRET_FILE as string));
    const info = await client.info();
    return { wallet: await SignerKeyring.connect(client), checkChain: servedBy(info.chainIds), stop: async () => {} };
  }
  if (config.evmChains.length > 0) throw new Error('SIGNER_URL is required with EVM_RPC_URL(S)');
  if (config.SIGNER === 'in-process' || !opts.connect) {
    const loaded = loadMnemonic({
      mnemonic: config.WALLET_MNEMONIC,
      mnemonicFile: config.WALLET_MNEMONIC_FILE,
      dataDir: config.dataDir,
      allowGenerate: true,
    });
    if (loaded.generated) {
      log.warn({ file: `${config.dataDir}/${MNEMONIC_FILE_NAME}` }, 'generated a new HD wallet mnemonic (embedded mode; back it up)');
    }
    return {
      wallet: new MnemonicKeyring(loaded.mnemonic),
      checkChain: (chainId) => assertMnemonicAllowed(loaded.mnemonic, chainId),
      stop: async () => {},
    };
  }
  const child = await startEmbeddedSigner({
    dataDir: config.dataDir,
    mnemonic: config.WALLET_MNEMONIC,
    mnemonicFile: config.WALLET_MNEMONIC_FILE,
    policy: await embeddedPolicy(database, opts.embeddedChainIds),
    stderr: config.LOG_LEVEL === 'silent' ? 'ignore' : 'inherit',
  });
  try {
    const wallet = await SignerKeyring.connect(new SignerClient(child.url, readSecretFile(child.secretFile)));
    return {
      wallet,
      checkChain: servedBy([...opts.embeddedChainIds]),
      refreshPolicy: async () => child.reload(await embeddedPolicy(database, opts.embeddedChainIds)),
      stop: () => child.stop(),
    };
  } catch (err) {
    await child.stop();
    throw err;
  }
}

function servedBy(chainIds: readonly number[]): (chainId: number) => void {
  return (chainId) => {
    if (!chainIds.includes(chainId))
      throw new Error(`the signer's policy does not cover chain ${chainId} (it serves ${chainIds.join(', ')})`);
  };
}

/** Whole units, written as base units for `decimals`. */
const units = (whole: bigint, decimals: number) => (whole * 10n ** BigInt(decimals)).toString();

/**
 * The embedded signer's policy, from the local chains' networks: their token contracts and cold
 * addresses, and limits wide enough for test coins (a production signer has its own file).
 */
export async function embeddedPolicy(database: Database, chainIds: readonly number[]): Promise<PolicyJson> {
  const chains: PolicyJson['chains'] = [];
  for (const chainId of chainIds) chains.push(await embeddedChainPolicy(database, chainId));
  // the local UTXO regtest chain (its coins are worthless): payouts up to 1,000 LTC, fee up to 0.1
  const utxoChains = Object.values(UTXO_NETWORKS)
    .filter((p) => p.local)
    .map((p) => ({
      chainId: p.chainId,
      native: { code: p.coin, perTxMax: units(1000n, 8), perDayMax: units(100_000n, 8) },
      maxFee: units(1n, 7),
    }));
  return { chains, utxoChains };
}

async function embeddedChainPolicy(database: Database, chainId: number): Promise<Record<string, unknown>> {
  const rows = await database.sql.query<{
    code: string;
    native: boolean;
    contract: string | null;
    token_decimals: number;
    cold_address: string | null;
  }>(
    `select c.code, n.native, n.contract, n.token_decimals, n.cold_address from networks n join currencies c on c.id = n.currency_id
     where n.chain_id = $1 order by n.id`,
    [chainId],
  );
  const native = rows.find((r) => r.native);
  const limits = (r: { code: string; token_decimals: number }) => ({
    code: r.code,
    perTxMax: units(100_000n, r.token_decimals),
    perDayMax: units(10_000_000n, r.token_decimals),
  });
  return {
    chainId,
    coldAddress: rows.find((r) => r.cold_address)?.cold_address ?? null,
    maxFeeWei: units(1n, 18),
    topUpMaxWei: units(1n, 17),
    topUpPerDayWei: units(1000n, 18),
    native: limits(native ?? { code: 'ETH', token_decimals: 18 }),
    tokens: rows.filter((r) => !r.native && r.contract !== null).map((r) => ({ ...limits(r), contract: r.contract })),
  };
}
