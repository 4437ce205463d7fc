/**
 * Addresses of the UTXO chain family: BIP-84 deposit addresses derived from an account's
 * extended public key (no private key on the deposit path), and withdrawal destinations
 * validated per network (bech32/bech32m segwit, base58check P2PKH/P2SH).
 */
import { ErrorCode } from '@coffer/contract';
import { bech32, bech32m, hex } from '@scure/base';
import { HDKey } from '@scure/bip32';
import { Address, OutScript, p2wpkh, WIF } from '@scure/btc-signer';
import type { BTC_NETWORK } from '@scure/btc-signer/utils.js';
import { UTXO_NETWORK_NAMES, UTXO_NETWORKS, type UtxoParams } from './params.ts';

/** BIP-32's first hardened index: an account level below it is not an account key. */
const HARDENED = 0x8000_0000;
/** BIP-173: a segwit address is at most 90 characters. */
const BECH32_MAX_LENGTH = 90;
/** Parsed account keys kept so that deriving many addresses reads each key once. */
const ACCOUNT_CACHE_SIZE = 16;

/** The network object @scure/btc-signer encodes addresses with, built from the data in params. */
export function btcSignerNetwork(params: UtxoParams): BTC_NETWORK {
  return { bech32: params.bech32, pubKeyHash: params.pubKeyHash, scriptHash: params.scriptHash, wif: params.wif };
}

/** m/84'/coin'/0': the one account Coffer uses per network. */
export function utxoAccountPath(params: UtxoParams): string {
  return `m/84'/${params.coinType}'/0'`;
}

/** m/84'/coin'/0'/change/index: where the key of a deposit (change 0) or change (1) address lives. */
export function bip84Path(params: UtxoParams, index: number, change: 0 | 1 = 0): string {
  return `${utxoAccountPath(params)}/${change}/${index}`;
}

/** The account extended public key m/84'/coin'/0' of a BIP-39 seed, in the xpub/tpub form Bitcoin Core's descriptors read. */
export function utxoAccountXpub(seed: Uint8Array, params: UtxoParams): string {
  return HDKey.fromMasterSeed(seed, params.bip32).derive(utxoAccountPath(params)).publicExtendedKey;
}

/** The account extended private key m/84'/coin'/0' (xprv/tprv): for the signer and for importing into a node's wallet in tests. */
export function utxoAccountXprv(seed: Uint8Array, params: UtxoParams): string {
  const account = HDKey.fromMasterSeed(seed, params.bip32).derive(utxoAccountPath(params));
  return account.privateExtendedKey;
}

/** The private key of m/84'/coin'/0'/change/index of a BIP-39 seed: for the signer, never the deposit path. */
export function bip84PrivateKey(seed: Uint8Array, params: UtxoParams, index: number, change: 0 | 1 = 0): Uint8Array {
  const key = HDKey.fromMasterSeed(seed, params.bip32).derive(bip84Path(params, index, change)).privateKey;
  if (!key) throw new Error('derived key has no private key');
  return key;
}

/** A private key in the wallet import format of this network (compressed public key), e.g. for a node's importprivkey. */
export function privateKeyToWif(key: Uint8Array, params: UtxoParams): string {
  return WIF(btcSignerNetwork(params)).encode(key);
}

function parseWith(key: string, versions: UtxoParams['bip32']): HDKey | null {
  try {
    return HDKey.fromExtendedKey(key, versions);
  } catch {
    return null;
  }
}

/**
 * Reads an account public key given as xpub/tpub or as its BIP-84 (SLIP-132) form zpub/vpub;
 * throws on anything else, on a private key (the deposit path must not hold one) and on a key
 * that is not at the account level (depth 3, hardened), e.g. a root or a chain key.
 */
function parseAccountKey(key: string, params: UtxoParams): HDKey {
  const parsed = parseWith(key, params.bip32) ?? parseWith(key, params.bip84);
  if (!parsed) {
    const expected = params.coinType === 1 ? 'tpub or vpub' : 'xpub or zpub';
    throw new Error(`not an extended public key of ${params.label} (${expected} expected)`);
  }
  if (parsed.privateKey) throw new Error('an extended private key was given: the deposit path takes the public key only');
  if (parsed.depth !== 3 || parsed.index < HARDENED) {
    throw new Error(`not an account key (m/84'/${params.coinType}'/0' expected): depth ${parsed.depth}`);
  }
  return parsed;
}

/** An account key and its receive (0) and change (1) chain keys, derived once. */
interface ParsedAccount {
  account: HDKey;
  chains: readonly [HDKey, HDKey];
}

const accountCache = new Map<string, ParsedAccount>();

function parsedAccount(key: string, params: UtxoParams): ParsedAccount {
  const cacheKey = `${params.name}:${key}`;
  const hit = accountCache.get(cacheKey);
  if (hit) return hit;
  const account = parseAccountKey(key, params);
  const parsed = { account, chains: [account.deriveChild(0), account.deriveChild(1)] as const };
  if (accountCache.size >= ACCOUNT_CACHE_SIZE) accountCache.delete(accountCache.keys().next().value as string);
  accountCache.set(cacheKey, parsed);
  return parsed;
}

/** The account key in the xpub/tpub form (e.g. for a `wpkh(xpub/0/*)` descriptor), from xpub/tpub or zpub/vpub. */
export function normalizeAccountXpub(key: string, params: UtxoParams): string {
  const parsed = parsedAccount(key, params).account;
  return new HDKey({
    versions: params.bip32,
    depth: parsed.depth,
    index: parsed.index,
    parentFingerprint: parsed.parentFingerprint,
    chainCode: parsed.chainCode ?? undefined,
    publicKey: parsed.publicKey ?? undefined,
  }).publicExtendedKey;
}

/**
 * The BIP-84 native segwit (P2WPKH) address of m/84'/coin'/0'/change/index, derived from the
 * account extended public key alone.
 */
export function deriveBip84Address(accountXpub: string, index: number, params: UtxoParams, change: 0 | 1 = 0): string {
  if (!Number.isInteger(index) || index < 0 || index >= HARDENED) {
    throw new Error(`address index must be an integer from 0 to ${HARDENED - 1}: ${index}`);
  }
  const child = parsedAccount(accountXpub, params).chains[change].deriveChild(index);
  if (!child.publicKey) throw new Error('derived key has no public key');
  const address = p2wpkh(child.publicKey, btcSignerNetwork(params)).address;
  if (!address) throw new Error('P2WPKH address could not be encoded');
  return address;
}

/** A destination Coffer pays to: its canonical text and the output script it stands for. */
export interface UtxoDestination {
  address: string;
  kind: 'p2wpkh' | 'p2wsh' | 'p2tr' | 'p2pkh' | 'p2sh';
  script: Uint8Array;
}

/**
 * Decodes a segwit address of this network. Only witness v0 (20 or 32 bytes, bech32) and v1
 * with 32 bytes (taproot, bech32m) are destinations: other programs are valid BIP-350 strings,
 * but their outputs are anyone-can-spend today (BIP-433's P2A is such a v1 program), so a
 * custodian must not pay to them.
 */
function decodeSegwit(input: string, params: UtxoParams): UtxoDestination | null {
  const lower = input.toLowerCase();
  // BIP-173: all lower or all upper case; a mixed-case string is invalid
  if (input !== lower && input !== input.toUpperCase()) return null;
  if (!lower.startsWith(`${params.bech32}1`)) return null;
  const v0 = bech32.decodeUnsafe(lower, BECH32_MAX_LENGTH);
  const v1 = v0 ? undefined : bech32m.decodeUnsafe(lower, BECH32_MAX_LENGTH);
  const decoded = v0 ?? v1;
  if (!decoded || decoded.prefix !== params.bech32 || decoded.words.length === 0) return null;
  const [version, ...words] = decoded.words;
  // BIP-350: v0 must carry a bech32 checksum, every later version a bech32m one
  if ((version === 0) !== Boolean(v0)) return null;
  const program = (v0 ? bech32 : bech32m).fromWordsUnsafe(words);
  if (!program) return null;
  if (version === 0 && program.length === 20) {
    return { address: lower, kind: 'p2wpkh', script: OutScript.encode({ type: 'wpkh', hash: program }) };
  }
  if (version === 0 && program.length === 32) {
    return { address: lower, kind: 'p2wsh', script: OutScript.encode({ type: 'wsh', hash: program }) };
  }
  if (version === 1 && program.length === 32) {
    const script = taprootScript(program);
    return script ? { address: lower, kind: 'p2tr', script } : null;
  }
  return null;
}

/**
 * The P2TR script of a 32-byte v1 program, or null when the program is not the x coordinate of
 * a point on secp256k1 (the encoder checks it): such an output is valid on chain but nobody
 * can ever spend it, so it is no destination.
 */
function taprootScript(program: Uint8Array): Uint8Array | null {
  try {
    return OutScript.encode({ type: 'tr', pubkey: program });
  } catch {
    return null;
  }
}

/** Decodes a base58check P2PKH/P2SH address with this network's version bytes. */
function decodeBase58(input: string, params: UtxoParams): UtxoDestination | null {
  // a string starting with this network's bech32 prefix is judged as segwit only
  if (input.toLowerCase().startsWith(`${params.bech32}1`)) return null;
  let decoded: ReturnType<ReturnType<typeof Address>['decode']>;
  try {
    decoded = Address(btcSignerNetwork(params)).decode(input);
  } catch {
    return null;
  }
  if (decoded.type === 'pkh') return { address: input, kind: 'p2pkh', script: OutScript.encode(decoded) };
  if (decoded.type === 'sh') return { address: input, kind: 'p2sh', script: OutScript.encode(decoded) };
  return null;
}

/** The destination this text names on this network, or null when it is not a valid one here. */
export function decodeUtxoAddress(input: string, params: UtxoParams): UtxoDestination | null {
  return decodeSegwit(input, params) ?? decodeBase58(input, params);
}

/**
 * The canonical form of a withdrawal destination valid on this network (bech32 lower-cased,
 * base58 as given), or null. The caller trims: surrounding spaces make it invalid.
 */
export function normalizeUtxoAddress(input: string, params: UtxoParams): string | null {
  return decodeUtxoAddress(input, params)?.address ?? null;
}

export type UtxoAddressProblem = 'malformed' | 'other-network' | 'other-family';

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/**
 * Why an address is refused on this network, or null when it is valid here: 'other-network'
 * when it is valid on another UTXO network (a bc1 address given for Litecoin), 'other-family'
 * for an EVM address, 'malformed' for anything else.
 */
export function utxoAddressProblem(input: string, params: UtxoParams): UtxoAddressProblem | null {
  if (decodeUtxoAddress(input, params)) return null;
  if (EVM_ADDRESS.test(input)) return 'other-family';
  const elsewhere = UTXO_NETWORK_NAMES.some((name) => name !== params.name && decodeUtxoAddress(input, UTXO_NETWORKS[name]) !== null);
  return elsewhere ? 'other-network' : 'malformed';
}

/** The result code a refused withdrawal address answers with (both languages in @coffer/contract). */
export const UTXO_ADDRESS_PROBLEM_CODES = {
  malformed: ErrorCode.INVALID_ADDRESS,
  'other-network': ErrorCode.ADDRESS_OTHER_NETWORK,
  'other-family': ErrorCode.ADDRESS_OTHER_FAMILY,
} as const satisfies Record<UtxoAddressProblem, number>;

/** The UTXO networks on which this text is a valid destination (e.g. for an EVM network to say "another kind of chain"). */
export function utxoNetworksOf(input: string): UtxoParams[] {
  return UTXO_NETWORK_NAMES.map((name) => UTXO_NETWORKS[name]).filter((p) => decodeUtxoAddress(input, p) !== null);
}

/** The output script (scriptPubKey) hex of a valid address of this network; throws on an invalid one. */
export function addressScriptHex(address: string, params: UtxoParams): string {
  const decoded = decodeUtxoAddress(address, params);
  if (!decoded) throw new Error(`not a valid ${params.label} address: ${address}`);
  return hex.encode(decoded.script);
}

/**
 * The address an output script pays to on this network (P2WPKH, P2WSH, P2TR, P2PKH, P2SH),
 * or null for any other script (OP_RETURN, bare multisig, P2PK, future witness versions).
 */
export function scriptHexToAddress(scriptHex: string, params: UtxoParams): string | null {
  const decoded = decodeScript(scriptHex);
  if (!decoded || !['wpkh', 'wsh', 'tr', 'pkh', 'sh'].includes(decoded.type)) return null;
  const coder = Address(btcSignerNetwork(params));
  try {
    // the decoder's and the encoder's declared types differ only in their byte-array wrappers
    return coder.encode(decoded as Parameters<typeof coder.encode>[0]);
  } catch {
    return null;
  }
}

function decodeScript(scriptHex: string) {
  try {
    return OutScript.decode(hex.decode(scriptHex.toLowerCase()));
  } catch {
    return null;
  }
}
