/**
 * Network parameters of the UTXO chain family, as data: one code path serves Bitcoin mainnet,
 * testnet and regtest and Litecoin's three networks, and only these records differ.
 *
 * Version bytes are those of Bitcoin Core's and Litecoin Core 0.21's chainparams.cpp; the
 * regtest ones were checked against a running `litecoind -regtest` (0.21.2.1): its legacy,
 * p2sh-segwit and bech32 addresses start with m/n, Q and rltc1 (see address.test.ts).
 */

export type UtxoNetworkName = 'bitcoin' | 'bitcoin-testnet' | 'bitcoin-regtest' | 'litecoin' | 'litecoin-testnet' | 'litecoin-regtest';

export interface UtxoParams {
  name: UtxoNetworkName;
  /** what a user reads, e.g. 'Bitcoin' or 'Litecoin (regtest)' */
  label: string;
  /** the coin's ticker, the same on every network of the coin */
  coin: 'BTC' | 'LTC';
  /** human-readable part of bech32/bech32m (segwit) addresses */
  bech32: string;
  /** base58check version byte of P2PKH addresses */
  pubKeyHash: number;
  /** base58check version byte of P2SH addresses */
  scriptHash: number;
  /** version byte of WIF private keys */
  wif: number;
  /** BIP-44 coin type of the derivation path m/84'/coinType'/0' (SLIP-44; 1 on every test network) */
  coinType: number;
  /** BIP-32 serialisation versions of the account key as Bitcoin Core writes it in descriptors (xpub/xprv or tpub/tprv) */
  bip32: { public: number; private: number };
  /** SLIP-132 versions of a BIP-84 account key (zpub/zprv or vpub/vprv), accepted and read as the above */
  bip84: { public: number; private: number };
  /** the synthetic id stored in networks.chain_id (see UTXO_CHAIN_ID_BASE) */
  chainId: number;
  /** true on regtest: a local chain whose coins are worthless (the public test mnemonics are fine there) */
  local: boolean;
}

/**
 * UTXO chains have no chain id, but a network row and its deposit addresses are keyed by
 * `chain_id` (an int4 column, and the signer's policy wants a positive number). EIP-155 ids
 * are chosen freely by each EVM chain, so no positive number is reserved for us; the listed
 * EVM chains (ethereum-lists/chains) sit far below the top of the int4 range, so the UTXO ids
 * take its last 64Ki block: 0x7fff0000 + 16 * SLIP-44 coin + network (0 main, 1 test,
 * 2 regtest). The `family` column of a network row tells the two kinds apart in any case.
 */
export const UTXO_CHAIN_ID_BASE = 0x7fff_0000;

const MAIN_KEYS = {
  bip32: { public: 0x0488b21e, private: 0x0488ade4 }, // xpub / xprv
  bip84: { public: 0x04b24746, private: 0x04b2430c }, // zpub / zprv
} as const;

const TEST_KEYS = {
  bip32: { public: 0x043587cf, private: 0x04358394 }, // tpub / tprv
  bip84: { public: 0x045f1cf6, private: 0x045f18bc }, // vpub / vprv
} as const;

const BITCOIN_CHAIN_ID = UTXO_CHAIN_ID_BASE + 16 * 0;
const LITECOIN_CHAIN_ID = UTXO_CHAIN_ID_BASE + 16 * 2;

/** Freezes a record and the objects it holds, so that no caller can change a network's bytes. */
function deepFreeze<T extends object>(value: T): Readonly<T> {
  for (const inner of Object.values(value)) if (inner && typeof inner === 'object') deepFreeze(inner);
  return Object.freeze(value);
}

export const UTXO_NETWORKS: Readonly<Record<UtxoNetworkName, UtxoParams>> = deepFreeze({
  bitcoin: {
    name: 'bitcoin',
    label: 'Bitcoin',
    coin: 'BTC',
    bech32: 'bc',
    pubKeyHash: 0x00,
    scriptHash: 0x05,
    wif: 0x80,
    coinType: 0,
    ...MAIN_KEYS,
    chainId: BITCOIN_CHAIN_ID,
    local: false,
  },
  'bitcoin-testnet': {
    name: 'bitcoin-testnet',
    label: 'Bitcoin (testnet)',
    coin: 'BTC',
    bech32: 'tb',
    pubKeyHash: 0x6f,
    scriptHash: 0xc4,
    wif: 0xef,
    coinType: 1,
    ...TEST_KEYS,
    chainId: BITCOIN_CHAIN_ID + 1,
    local: false,
  },
  'bitcoin-regtest': {
    name: 'bitcoin-regtest',
    label: 'Bitcoin (regtest)',
    coin: 'BTC',
    bech32: 'bcrt',
    pubKeyHash: 0x6f,
    scriptHash: 0xc4,
    wif: 0xef,
    coinType: 1,
    ...TEST_KEYS,
    chainId: BITCOIN_CHAIN_ID + 2,
    local: true,
  },
  // Litecoin moved P2SH from Bitcoin's version bytes (5, 196) to its own (50 'M', 58 'Q');
  // Litecoin Core still reads the old ones, but they are byte for byte Bitcoin's P2SH
  // addresses, so Coffer refuses them as another network's (see address.ts).
  litecoin: {
    name: 'litecoin',
    label: 'Litecoin',
    coin: 'LTC',
    bech32: 'ltc',
    pubKeyHash: 0x30,
    scriptHash: 0x32,
    wif: 0xb0,
    coinType: 2,
    ...MAIN_KEYS,
    chainId: LITECOIN_CHAIN_ID,
    local: false,
  },
  'litecoin-testnet': {
    name: 'litecoin-testnet',
    label: 'Litecoin (testnet)',
    coin: 'LTC',
    bech32: 'tltc',
    pubKeyHash: 0x6f,
    scriptHash: 0x3a,
    wif: 0xef,
    coinType: 1,
    ...TEST_KEYS,
    chainId: LITECOIN_CHAIN_ID + 1,
    local: false,
  },
  'litecoin-regtest': {
    name: 'litecoin-regtest',
    label: 'Litecoin (regtest)',
    coin: 'LTC',
    bech32: 'rltc',
    pubKeyHash: 0x6f,
    scriptHash: 0x3a,
    wif: 0xef,
    coinType: 1,
    ...TEST_KEYS,
    chainId: LITECOIN_CHAIN_ID + 2,
    local: true,
  },
} satisfies Record<UtxoNetworkName, UtxoParams>);

export const UTXO_NETWORK_NAMES = Object.keys(UTXO_NETWORKS) as readonly UtxoNetworkName[];

/** The UTXO network stored under this networks.chain_id, or undefined (an EVM chain, or unknown). */
export function utxoParamsByChainId(chainId: number): UtxoParams | undefined {
  return UTXO_NETWORK_NAMES.map((name) => UTXO_NETWORKS[name]).find((p) => p.chainId === chainId);
}

/** The UTXO network of this name (e.g. from a setting), or undefined. */
export function utxoParamsByName(name: string): UtxoParams | undefined {
  return (UTXO_NETWORK_NAMES as readonly string[]).includes(name) ? UTXO_NETWORKS[name as UtxoNetworkName] : undefined;
}
