import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { HDKey } from '@scure/bip32';
import { generateMnemonic, mnemonicToSeedSync, validateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import { bytesToHex, type LocalAccount } from 'viem';
import { privateKeyToAccount, publicKeyToAddress } from 'viem/accounts';
import { bip84PrivateKey, deriveBip84Address, utxoAccountXpub as accountXpubOf } from './utxo/address.ts';
import type { UtxoParams } from './utxo/params.ts';
import { signPayout, type UtxoSigned, type UtxoSignRequest } from './utxo/payout-tx.ts';

/** anvil's (and hardhat's) prefunded dev mnemonic. Public knowledge: local chains only. */
export const ANVIL_TEST_MNEMONIC = 'test test test test test test test test test test test junk';

/** The embedded second local chain, "L2 (local)" (docs/decisions/050-several-networks.md). */
export const LOCAL_L2_CHAIN_ID = 31338;
/** Chain ids treated as local dev chains (anvil / hardhat 31337, ganache 1337, the local L2). */
export const LOCAL_CHAIN_IDS: ReadonlySet<number> = new Set([31337, 1337, LOCAL_L2_CHAIN_ID]);

/** Where a mnemonic kept in DATA_DIR lives. */
export const MNEMONIC_FILE_NAME = 'wallet-mnemonic';

export interface LoadMnemonicOptions {
  /** the mnemonic itself (e.g. from an environment variable); wins over everything else */
  mnemonic?: string;
  /** path of a file holding the mnemonic (e.g. a mounted secret) */
  mnemonicFile?: string;
  /** DATA_DIR: `DATA_DIR/wallet-mnemonic` is read, or created when allowGenerate */
  dataDir: string;
  /** create `DATA_DIR/wallet-mnemonic` (new 24 words, 0600) when neither value nor file is given */
  allowGenerate: boolean;
}

export interface LoadedMnemonic {
  mnemonic: string;
  /** true only when this call created DATA_DIR/wallet-mnemonic */
  generated: boolean;
  source: 'env' | 'file' | 'data-dir';
}

/** Collapses whitespace and case so that pasted or file-read phrases compare and validate. */
export function normalizeMnemonic(mnemonic: string): string {
  return mnemonic.normalize('NFKD').trim().toLowerCase().split(/\s+/).join(' ');
}

function checked(raw: string, where: string): string {
  const mnemonic = normalizeMnemonic(raw);
  if (!mnemonic) throw new Error(`wallet mnemonic from ${where} is empty`);
  if (!validateMnemonic(mnemonic, wordlist)) {
    // never echo the phrase: it is the key to every deposit address
    throw new Error(
      `wallet mnemonic from ${where} is not a valid BIP-39 English mnemonic (${mnemonic.split(' ').length} words; unknown word or bad checksum)`,
    );
  }
  return mnemonic;
}

/**
 * The wallet's HD mnemonic: `opts.mnemonic` (env), else `opts.mnemonicFile`, else
 * `DATA_DIR/wallet-mnemonic`, created on first use (24 words, file 0600, directory 0700 when
 * this call creates it) if `allowGenerate`. Throws when there is none or it is invalid.
 */
export function loadMnemonic(opts: LoadMnemonicOptions): LoadedMnemonic {
  if (opts.mnemonic !== undefined && opts.mnemonic.trim() !== '') {
    return { mnemonic: checked(opts.mnemonic, 'the environment'), generated: false, source: 'env' };
  }
  if (opts.mnemonicFile) {
    let text: string;
    try {
      text = readFileSync(opts.mnemonicFile, 'utf8');
    } catch (err) {
      throw new Error(`cannot read wallet mnemonic file ${opts.mnemonicFile}: ${(err as Error).message}`);
    }
    return { mnemonic: checked(text, opts.mnemonicFile), generated: false, source: 'file' };
  }
  const path = join(opts.dataDir, MNEMONIC_FILE_NAME);
  if (existsSync(path)) {
    return { mnemonic: checked(readFileSync(path, 'utf8'), path), generated: false, source: 'data-dir' };
  }
  if (!opts.allowGenerate) {
    throw new Error(`no wallet mnemonic: give one (value or file), or let it be generated into ${path}`);
  }
  mkdirSync(opts.dataDir, { recursive: true, mode: 0o700 });
  const mnemonic = generateMnemonic(wordlist, 256);
  try {
    // wx: a concurrent starter that lost the race reads the winner's phrase below
    writeFileSync(path, `${mnemonic}\n`, { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return { mnemonic: checked(readFileSync(path, 'utf8'), path), generated: false, source: 'data-dir' };
  }
  return { mnemonic, generated: true, source: 'data-dir' };
}

/** Refuses the public anvil test mnemonic anywhere but on a local chain (31337, 1337). */
export function assertMnemonicAllowed(mnemonic: string, chainId: number): void {
  if (normalizeMnemonic(mnemonic) === ANVIL_TEST_MNEMONIC && !LOCAL_CHAIN_IDS.has(chainId)) {
    throw new Error(
      `the public anvil test mnemonic ("test test ... junk") is refused on chain ${chainId}: anyone can spend from it; use a generated mnemonic`,
    );
  }
}

/** BIP-44 account path of deposit addresses (external chain 0, index i below it). */
export const DEPOSIT_ACCOUNT_PATH = "m/44'/60'/0'";
/** The hot wallet: its own BIP-44 account, so it never collides with a deposit index. */
export const HOT_WALLET_PATH = "m/44'/60'/1'/0/0";

const MAX_INDEX = 0x7fffffff;

function assertIndex(index: number): void {
  if (!Number.isSafeInteger(index) || index < 0 || index > MAX_INDEX) {
    throw new RangeError(`deposit index must be an integer in [0, ${MAX_INDEX}], got ${index}`);
  }
}

function publicKeyAddress(publicKey: Uint8Array | null): `0x${string}` {
  if (!publicKey) throw new Error('HD node without public key');
  const uncompressed = secp256k1.Point.fromBytes(publicKey).toBytes(false);
  return publicKeyToAddress(bytesToHex(uncompressed)); // checksummed
}

function nodeAccount(node: HDKey): LocalAccount {
  if (!node.privateKey) throw new Error('HD node without private key');
  return privateKeyToAccount(bytesToHex(node.privateKey));
}

/**
 * Derives deposit addresses (m/44'/60'/0'/0/i) from an account-level xpub alone: what a
 * watcher needs, without any private key.
 */
export class XpubDeriver {
  private readonly external: HDKey;

  constructor(readonly xpub: string) {
    const node = HDKey.fromExtendedKey(xpub);
    if (node.privateKey) throw new Error('expected an extended public key (xpub), got a private one');
    this.external = node.deriveChild(0);
  }

  /** EIP-55 checksummed address of deposit index `index`. */
  depositAddress(index: number): `0x${string}` {
    assertIndex(index);
    return publicKeyAddress(this.external.deriveChild(index).publicKey);
  }
}

/**
 * Why a hot-wallet signature is asked for, sent to a separate signer as a hint: the signer
 * classifies the transaction itself and only uses the deposit index to derive, on its side,
 * the one address a gas top-up may go to (docs/decisions/039-separate-signer.md).
 */
export type SignHint = { purpose: 'gas_topup'; depositIndex: number } | { purpose: 'withdrawal' | 'cold' | 'cancel' };

/**
 * What the chain workers need of the keys: the deposit xpub and addresses, and accounts that
 * sign. In-process (`MnemonicKeyring`, tests and tools) or forwarded to the separate signer
 * (`SignerKeyring` in src/signer/client.ts), which alone holds the mnemonic in production.
 */
export interface Keyring {
  /** xpub of m/44'/60'/0' (the deposit account) */
  readonly xpub: string;
  /** the hot wallet's address (m/44'/60'/1'/0/0) */
  readonly hotAddress: `0x${string}`;
  /** Deposit address of index `index`, derived from the xpub only (checksummed). */
  depositAddress(index: number): `0x${string}`;
  /** Signing account of deposit index `index` (sweeps). */
  depositAccount(index: number): LocalAccount;
  /** The hot wallet (withdrawals, gas top-ups, moves to cold); `hint` says why, for a separate signer. */
  hotAccount(hint?: SignHint): LocalAccount;
  /** The BIP-84 account key m/84'/coin'/0' of a UTXO network (xpub/tpub): its deposit and change addresses. */
  utxoAccountXpub(params: UtxoParams): Promise<string>;
  /** Signs a UTXO payout transaction exactly as asked (chain/utxo/payout-tx.ts). */
  signUtxo(params: UtxoParams, req: UtxoSignRequest): Promise<UtxoSigned>;
}

/** The wallet's HD tree from its mnemonic (BIP-39 seed, no passphrase), keys in this process. */
export class MnemonicKeyring implements Keyring {
  /** xpub of m/44'/60'/0' (the deposit account) */
  readonly xpub: string;
  readonly hotAddress: `0x${string}`;
  private readonly root: HDKey;
  private readonly seed: Uint8Array;
  private readonly depositExternal: HDKey;
  private readonly deriver: XpubDeriver;

  constructor(mnemonic: string) {
    const phrase = checked(mnemonic, 'HdWallet');
    this.seed = mnemonicToSeedSync(phrase);
    this.root = HDKey.fromMasterSeed(this.seed);
    const account = this.root.derive(DEPOSIT_ACCOUNT_PATH);
    this.xpub = account.publicExtendedKey;
    this.depositExternal = account.deriveChild(0);
    this.deriver = new XpubDeriver(this.xpub);
    this.hotAddress = this.hotAccount().address;
  }

  /** Deposit address of index `index`, derived from the xpub only (checksummed). */
  depositAddress(index: number): `0x${string}` {
    return this.deriver.depositAddress(index);
  }

  /** Signing account of deposit index `index` (for sweeps). */
  depositAccount(index: number): LocalAccount {
    assertIndex(index);
    return nodeAccount(this.depositExternal.deriveChild(index));
  }

  /** The hot wallet (m/44'/60'/1'/0/0) that signs withdrawals. The hint is for a separate signer only. */
  hotAccount(_hint?: SignHint): LocalAccount {
    return nodeAccount(this.root.derive(HOT_WALLET_PATH));
  }

  async utxoAccountXpub(params: UtxoParams): Promise<string> {
    return accountXpubOf(this.seed, params);
  }

  async signUtxo(params: UtxoParams, req: UtxoSignRequest): Promise<UtxoSigned> {
    const key = (branch: 0 | 1, index: number) => {
      assertIndex(index);
      return bip84PrivateKey(this.seed, params, index, branch);
    };
    const xpub = await this.utxoAccountXpub(params);
    const changeAddress = req.change ? deriveBip84Address(xpub, req.change.index, params, 1) : '';
    const { hex, txid, vsize } = signPayout(req, params, key, changeAddress);
    return { hex, txid, vsize };
  }
}

/**
 * The name the chain workers use for their keys: the type is any `Keyring` (in-process or the
 * separate signer), the value builds the in-process one from a mnemonic (tests, tools).
 */
export type HdWallet = Keyring;
export const HdWallet = MnemonicKeyring;
