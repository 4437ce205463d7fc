import { ErrorCode, errorMessages } from '@coffer/contract';
import { mnemonicToSeedSync } from '@scure/bip39';
import { describe, expect, it } from 'vitest';
import { LOCAL_CHAIN_IDS } from '../keys.ts';
import {
  addressScriptHex,
  bip84Path,
  bip84PrivateKey,
  deriveBip84Address,
  normalizeAccountXpub,
  normalizeUtxoAddress,
  privateKeyToWif,
  scriptHexToAddress,
  UTXO_ADDRESS_PROBLEM_CODES,
  utxoAccountXpub,
  utxoAddressProblem,
  utxoNetworksOf,
} from './address.ts';
import { UTXO_NETWORK_NAMES, UTXO_NETWORKS, type UtxoNetworkName, utxoParamsByChainId } from './params.ts';

const BTC = UTXO_NETWORKS.bitcoin;
const LTC = UTXO_NETWORKS.litecoin;
const RLTC = UTXO_NETWORKS['litecoin-regtest'];
const ABANDON_MNEMONIC = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
const ABANDON_SEED = mnemonicToSeedSync(ABANDON_MNEMONIC);

// BIP-84 "Test vectors" (bitcoin/bips bip-0084.mediawiki): account 0 of the mnemonic above
const BIP84_ZPUB = 'zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs';
const BIP84_ZPRV = 'zprvAdG4iTXWBoARxkkzNpNh8r6Qag3irQB8PzEMkAFeTRXxHpbF9z4QgEvBRmfvqWvGp42t42nvgGpNgYSJA9iefm1yYNZKEm7z6qUWCroSQnE';
const BIP84_ROOT_ZPUB = 'zpub6jftahH18ngZxLmXaKw3GSZzZsszmt9WqedkyZdezFtWRFBZqsQH5hyUmb4pCEeZGmVfQuP5bedXTB8is6fTv19U1GQRyQUKQGUTzyHACMF';

describe('UTXO network parameters', () => {
  it('hold the version bytes of Bitcoin Core and Litecoin Core 0.21', () => {
    const bytes = UTXO_NETWORK_NAMES.map((n) => {
      const p = UTXO_NETWORKS[n];
      return [n, p.bech32, p.pubKeyHash, p.scriptHash, p.wif, p.coinType];
    });
    expect(bytes).toEqual([
      ['bitcoin', 'bc', 0x00, 0x05, 0x80, 0],
      ['bitcoin-testnet', 'tb', 0x6f, 0xc4, 0xef, 1],
      ['bitcoin-regtest', 'bcrt', 0x6f, 0xc4, 0xef, 1],
      ['litecoin', 'ltc', 0x30, 0x32, 0xb0, 2],
      ['litecoin-testnet', 'tltc', 0x6f, 0x3a, 0xef, 1],
      ['litecoin-regtest', 'rltc', 0x6f, 0x3a, 0xef, 1],
    ]);
  });

  it('give each network a distinct positive int4 chain id away from the EVM ones in use', () => {
    const ids = UTXO_NETWORK_NAMES.map((n) => UTXO_NETWORKS[n].chainId);
    expect(new Set(ids).size).toBe(ids.length);
    const evmInUse = [1, 10, 56, 137, 8453, 42161, 11155111, ...LOCAL_CHAIN_IDS];
    for (const id of ids) {
      expect(id).toBeGreaterThan(0);
      expect(id).toBeLessThanOrEqual(0x7fff_ffff);
      expect(evmInUse).not.toContain(id);
      expect(utxoParamsByChainId(id)?.chainId).toBe(id);
    }
    expect(utxoParamsByChainId(31337)).toBeUndefined();
    expect(utxoParamsByChainId(1)).toBeUndefined();
  });
});

describe('BIP-84 deposit addresses', () => {
  it('derive the published receive and change addresses from the account zpub', () => {
    expect(deriveBip84Address(BIP84_ZPUB, 0, BTC)).toBe('bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu');
    expect(deriveBip84Address(BIP84_ZPUB, 1, BTC)).toBe('bc1qnjg0jd8228aq7egyzacy8cys3knf9xvrerkf9g');
    expect(deriveBip84Address(BIP84_ZPUB, 0, BTC, 1)).toBe('bc1q8c6fshw2dlwun7ekn9qwf37cu2rn755upcp6el');
  });

  it('derive the account key of the published mnemonic: the same key as the zpub, in xpub form', () => {
    const xpub = utxoAccountXpub(ABANDON_SEED, BTC);
    expect(xpub.startsWith('xpub')).toBe(true);
    expect(normalizeAccountXpub(BIP84_ZPUB, BTC)).toBe(xpub);
    expect(normalizeAccountXpub(xpub, BTC)).toBe(xpub);
    for (const index of [0, 1, 7, 1000]) {
      expect(deriveBip84Address(xpub, index, BTC)).toBe(deriveBip84Address(BIP84_ZPUB, index, BTC));
    }
    expect(bip84Path(BTC, 5, 1)).toBe("m/84'/0'/0'/1/5");
  });

  it('derive on Litecoin with coin type 2 and on every test network with coin type 1', () => {
    const ltc = deriveBip84Address(utxoAccountXpub(ABANDON_SEED, LTC), 0, LTC);
    expect(ltc).toMatch(/^ltc1q[02-9ac-hj-np-z]{38}$/);
    expect(normalizeUtxoAddress(ltc, LTC)).toBe(ltc);
    // the same key (m/84'/1'/0') on every test network, only the prefix differs
    const tpub = utxoAccountXpub(ABANDON_SEED, RLTC);
    expect(tpub.startsWith('tpub')).toBe(true);
    const onTestnets = (['bitcoin-testnet', 'bitcoin-regtest', 'litecoin-testnet', 'litecoin-regtest'] as const).map((n) =>
      addressScriptHex(deriveBip84Address(tpub, 0, UTXO_NETWORKS[n]), UTXO_NETWORKS[n]),
    );
    expect(new Set(onTestnets).size).toBe(1);
  });

  it('derive on litecoin-regtest what litecoind derives for the same seed', () => {
    // `litecoind -regtest` 0.21.2.1: deriveaddresses "wpkh(<master tprv of the seed>/84'/1'/0'/0/*)" [0,2]
    // (and .../1/* for change); address-node.test.ts checks the same against a running node
    const tpub = utxoAccountXpub(ABANDON_SEED, RLTC);
    expect([0, 1, 2].map((i) => deriveBip84Address(tpub, i, RLTC))).toEqual([
      'rltc1q6rz28mcfaxtmd6v789l9rrlrusdprr9puuzgkg',
      'rltc1qd7spv5q28348xl4myc8zmh983w5jx32cwn4h9f',
      'rltc1qxdyjf6h5d6qxap4n2dap97q4j5ps6ua8vmutcu',
    ]);
    expect([0, 1, 2].map((i) => deriveBip84Address(tpub, i, RLTC, 1))).toEqual([
      'rltc1q9u62588spffmq4dzjxsr5l297znf3z6jg9f78s',
      'rltc1qkwgskuzmmwwvqajnyr7yp9hgvh5y45kgm20fm6',
      'rltc1q2vma00td2g9llw8hwa8ny3r774rtt7ae0dsszt',
    ]);
  });

  it("give the signer the published private keys, in each network's WIF", () => {
    const wif = (index: number, change: 0 | 1 = 0) => privateKeyToWif(bip84PrivateKey(ABANDON_SEED, BTC, index, change), BTC);
    expect(wif(0)).toBe('KyZpNDKnfs94vbrwhJneDi77V6jF64PWPF8x5cdJb8ifgg2DUc9d');
    expect(wif(1)).toBe('Kxpf5b8p3qX56DKEe5NqWbNUP9MnqoRFzZwHRtsFqhzuvUJsYZCy');
    expect(wif(0, 1)).toBe('KxuoxufJL5csa1Wieb2kp29VNdn92Us8CoaUG3aGtPtcF3AzeXvF');
    // Litecoin Core key_io_valid.json: compressed private keys on main and regtest
    const key = (hexKey: string) => Uint8Array.from(Buffer.from(hexKey, 'hex'));
    expect(privateKeyToWif(key('44b78d45adc801a65949661d5df1c4a44f532cd422be413a505d776784ddbe25'), LTC)).toBe(
      'T5MZ5z9WqJxzVxYyVPecTJUSDkzDWrUYe1JuSX2AqJ9jKmLJrvTE',
    );
    expect(privateKeyToWif(key('94c2eb1622023690b2fb86fe9c7091c63c9838fccc81b0e16adf3936d1a058d1'), RLTC)).toBe(
      'cSZsfcBGqQDBXuQeqAhDfqaoP54LhgiQvMkMctyrRuVR3BGQmbTU',
    );
  });

  it('refuse a private key, a key that is not an account key, another network key and a bad index', () => {
    expect(() => deriveBip84Address(BIP84_ZPRV, 0, BTC)).toThrow(/private key/);
    expect(() => deriveBip84Address(BIP84_ROOT_ZPUB, 0, BTC)).toThrow(/not an account key/);
    expect(() => deriveBip84Address(BIP84_ZPUB, 0, RLTC)).toThrow(/tpub or vpub expected/);
    expect(() => deriveBip84Address(utxoAccountXpub(ABANDON_SEED, RLTC), 0, LTC)).toThrow(/xpub or zpub expected/);
    expect(() => deriveBip84Address('not a key', 0, BTC)).toThrow(/xpub or zpub expected/);
    for (const index of [-1, 1.5, 0x8000_0000, Number.NaN]) {
      expect(() => deriveBip84Address(BIP84_ZPUB, index, BTC)).toThrow(/address index/);
    }
  });
});

/** [address, network, scriptPubKey hex] that must be accepted as they are (after lower-casing). */
const VALID: Array<[string, UtxoNetworkName, string]> = [
  // BIP-173 / BIP-350 valid segwit addresses (v0 and taproot)
  ['BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4', 'bitcoin', '0014751e76e8199196d454941c45d1b3a323f1433bd6'],
  [
    'bc1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3qccfmv3',
    'bitcoin',
    '00201863143c14c5166804bd19203356da136c985678cd4d27a1b8c6329604903262',
  ],
  [
    'tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7',
    'bitcoin-testnet',
    '00201863143c14c5166804bd19203356da136c985678cd4d27a1b8c6329604903262',
  ],
  [
    'tb1qqqqqp399et2xygdj5xreqhjjvcmzhxw4aywxecjdzew6hylgvsesrxh6hy',
    'bitcoin-testnet',
    '0020000000c4a5cad46221b2a187905e5266362b99d5e91c6ce24d165dab93e86433',
  ],
  [
    'tb1pqqqqp399et2xygdj5xreqhjjvcmzhxw4aywxecjdzew6hylgvsesf3hn0c',
    'bitcoin-testnet',
    '5120000000c4a5cad46221b2a187905e5266362b99d5e91c6ce24d165dab93e86433',
  ],
  [
    'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0',
    'bitcoin',
    '512079be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798',
  ],
  // Bitcoin Core src/test/data/key_io_valid.json
  ['1FsSia9rv4NeEwvJ2GvXrX7LyxYspbN2mo', 'bitcoin', '76a914a31c06bd463e3923bc1aadbde48b16976c08071788ac'],
  ['36j4NfKv6Akva9amjWrLG6MuSQym1GuEmm', 'bitcoin', 'a914373b819a068f32b7a6b38b6b38729647cfde01c287'],
  ['mzK2FFDEhxqHcmrJw1ysqFkVyhUULo45hZ', 'bitcoin-testnet', '76a914ce28b26c57472737f5c3561a1761185bd8589a4388ac'],
  ['2NC2hEhe28ULKAJkW5MjZ3jtTMJdvXmByvK', 'bitcoin-testnet', 'a914ce0bba75891ff9ec60148d4bd4a09ee2dc5c933187'],
  ['n4fajahJrAuKbN7uNsKjLjQkz9Qn5ewJXQ', 'bitcoin-regtest', '76a914fdeca3b08e38af53d7c4c60e3ad208ce5066441088ac'],
  ['2MxFajLApXpYk4VodBSZSt7rw8y4ryABkfA', 'bitcoin-regtest', 'a91436e9f191e0b75036a77f65e2eaa4752443233fbe87'],
  ['bc1qvyq0cc6rahyvsazfdje0twl7ez82ndmuac2lhv', 'bitcoin', '00146100fc6343edc8c874496cb2f5bbfec88ea9b77c'],
  [
    'bc1p83n3au0rjylefxq2nc2xh2y4jzz4pm6zxj4mw5pagdjjr2a9f36s6jjnnu',
    'bitcoin',
    '51203c671ef1e3913f94980a9e146ba895908550ef4234abb7503d436521aba54c75',
  ],
  ['tb1qcrh3yqn4nlleplcez2yndq2ry8h9ncg3qh7n54', 'bitcoin-testnet', '0014c0ef1202759fff90ff19128936814321ee59e111'],
  ['bcrt1qdavt4j2sd7dlhqsavtnfxvzppw6k7qy97tmnu9', 'bitcoin-regtest', '00146f58bac9506f9bfb821d62e69330410bb56f0085'],
  // BIP-86 test vectors: account 0, first receiving address
  [
    'bc1p5cyxnuxmeuwuvkwfem96lqzszd02n6xdcjrs20cac6yqjjwudpxqkedrcr',
    'bitcoin',
    '5120a60869f0dbcf1dc659c9cecbaf8050135ea9e8cdc487053f1dc6880949dc684c',
  ],
  // Litecoin Core src/test/data/key_io_valid.json (base58; checked with litecoind -chain=main/-regtest)
  ['LT2KVaAy1ppRuxRgrS5RNU3vBsy7RibPeA', 'litecoin', '76a914558dbca7118cd5894502767c7b2ffc21a22f54db88ac'],
  ['MHrYRxAiMNBTku3eoDHwhA1LQGDjUStZW2', 'litecoin', 'a9146d328a5b2a20d943a641c8d29b6cc3c2d2df85d387'],
  ['mwXn5Vhicdav8Av3KMokx4YNuHoGRKxtWs', 'litecoin-testnet', '76a914afa9e672141e283dfbcc1cf28f3793a856d3878488ac'],
  ['QXaUgLHkZcbJb2j5XgMYzY8cF9YM48Y81Z', 'litecoin-testnet', 'a9147860667e60a6545e18e541984094b29c9c46991b87'],
  ['mpWvR79tSrA5xeziB6mjNYWdaVRwBpgnUP', 'litecoin-regtest', '76a91462b790654f809d32202587c6a43456ffc1965d8388ac'],
  ['QgDNrG4nJpE4VV7PcFMFhkTgwAHWxWS7pj', 'litecoin-regtest', 'a914d71bee7a1395c10c9ca9a7f53ac086b53e74369d87'],
  // Bitcoin Core's segwit vectors re-encoded with Litecoin's prefixes; litecoind 0.21.2.1
  // validateaddress answered isvalid with these scripts
  ['ltc1qvyq0cc6rahyvsazfdje0twl7ez82ndmueysm0u', 'litecoin', '00146100fc6343edc8c874496cb2f5bbfec88ea9b77c'],
  [
    'ltc1qyucykdlhp62tezs0hagqury402qwhk589q80tqs5myh3rxq34nwq5jr8km',
    'litecoin',
    '002027304b37f70e94bc8a0fbf500e0c957a80ebda87280ef58214d92f119811acdc',
  ],
  [
    'ltc1p83n3au0rjylefxq2nc2xh2y4jzz4pm6zxj4mw5pagdjjr2a9f36sekurfe',
    'litecoin',
    '51203c671ef1e3913f94980a9e146ba895908550ef4234abb7503d436521aba54c75',
  ],
  [
    'rltc1p83n3au0rjylefxq2nc2xh2y4jzz4pm6zxj4mw5pagdjjr2a9f36sgqy9ny',
    'litecoin-regtest',
    '51203c671ef1e3913f94980a9e146ba895908550ef4234abb7503d436521aba54c75',
  ],
  // a litecoind -regtest wallet's getnewaddress "" legacy | p2sh-segwit | bech32, and validateaddress's script
  ['mhvxDH5DX1xUdLgSSqYgRyQXBiSY9SSSuc', 'litecoin-regtest', '76a9141a7a2a79284b06e13da028ebd7694d218cd459ce88ac'],
  ['QQa3ryzpFxYaCdiyNQ7P6N5MfczxUTFPKh', 'litecoin-regtest', 'a9142b82cde0c8eadf122a5271e87ac2bde49676d01e87'],
  ['rltc1q6gc8w797ydk3dpx6wqw2qdetgdvas7pc6ugduv', 'litecoin-regtest', '0014d2307778be236d1684da701ca0372b4359d87838'],
];

describe('withdrawal addresses', () => {
  it.each(VALID)('accept %s on %s with its script', (address, network, script) => {
    const params = UTXO_NETWORKS[network];
    expect(normalizeUtxoAddress(address, params)).toBe(/^[A-Z0-9]+$/.test(address) ? address.toLowerCase() : address);
    expect(utxoAddressProblem(address, params)).toBeNull();
    expect(addressScriptHex(address, params)).toBe(script);
    expect(scriptHexToAddress(script, params)).toBe(normalizeUtxoAddress(address, params));
  });

  it('accept an all-upper-case segwit address and give it lower-cased; refuse mixed case', () => {
    const lower = 'bc1qvyq0cc6rahyvsazfdje0twl7ez82ndmuac2lhv';
    expect(normalizeUtxoAddress(lower.toUpperCase(), BTC)).toBe(lower);
    expect(normalizeUtxoAddress('RLTC1Q6GC8W797YDK3DPX6WQW2QDETGDVAS7PC6UGDUV', RLTC)).toBe('rltc1q6gc8w797ydk3dpx6wqw2qdetgdvas7pc6ugduv');
    expect(normalizeUtxoAddress('bc1qvyq0cc6rahyvsazfdje0twl7ez82ndmuAc2lhv', BTC)).toBeNull();
    expect(normalizeUtxoAddress('tb1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq47Zagq', BTC)).toBeNull();
    // base58 is case-sensitive: another case is another (invalid) string
    expect(normalizeUtxoAddress('1fssia9rv4neewvj2gvxrx7lyxyspbn2mo', BTC)).toBeNull();
  });

  it.each([
    // BIP-173 invalid
    'tc1qw508d6qejxtdg4y5r3zarvary0c5xw7kg3g4ty',
    'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5',
    'BC13W508D6QEJXTDG4Y5R3ZARVARY0C5XW7KN40WF2',
    'bc1rw5uspcuh',
    'bc10w508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7kw5rljs90',
    'BC1QR508D6QEJXTDG4Y5R3ZARVARYV98GJ9P',
    'tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sL5k7',
    'bc1zw508d6qejxtdg4y5r3zarvaryvqyzf3du',
    'tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3pjxtptv',
    'bc1gmk9yu',
    // BIP-350 invalid
    'tc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq5zuyut',
    'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqh2y7hd',
    'tb1z0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqglt7rf',
    'BC1S0XLXVLHEMJA6C4DQV22UAPCTQUPFHLXM9H8Z3K2E72Q4K9HCZ7VQ54WELL',
    'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kemeawh',
    'tb1q0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq24jc47',
    'bc1p38j9r5y49hruaue7wxjce0updqjuyyx0kh56v8s25huc6995vvpql3jow4',
    'BC130XLXVLHEMJA6C4DQV22UAPCTQUPFHLXM9H8Z3K2E72Q4K9HCZ7VQ7ZWS8R',
    'bc1pw5dgrnzv',
    'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7v8n0nx0muaewav253zgeav',
    'tb1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq47Zagq',
    'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7v07qwwzcrf',
    'tb1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vpggkg4j',
    // v0 / v1 with the other checksum, on Litecoin (litecoind: isvalid false)
    'ltc1qvyq0cc6rahyvsazfdje0twl7ez82ndmuvcqh27',
    'ltc1p83n3au0rjylefxq2nc2xh2y4jzz4pm6zxj4mw5pagdjjr2a9f36sv2v0vm',
    // a base58 address with one character changed (checksum fails), and other junk
    '1FsSia9rv4NeEwvJ2GvXrX7LyxYspbN2mp',
    '',
    ' 1FsSia9rv4NeEwvJ2GvXrX7LyxYspbN2mo',
    'bc1qvyq0cc6rahyvsazfdje0twl7ez82ndmuac2lhv ',
    'hello',
    // a WIF private key (Bitcoin Core key_io_valid.json) is not a destination
    'L5nJeqKmpHp4P7F8ZYyjwc5a7P4d8EabuGAzfGJk7yC1BJyzNaEd',
    // a Litecoin MWEB address (litecoind -regtest getnewaddress "" mweb): not paid by this family
    'tmweb1qqt9xpek4cw093g64kgu2s5dxy6fedsvgcl0q4ll5he2satn2gzf36qhznf6vafjjnc4xx943z80jmxhvse42yudmfl6w58ectvy2qap2g5czhk72',
  ])('refuse %s everywhere as malformed', (address) => {
    for (const name of UTXO_NETWORK_NAMES) {
      expect(normalizeUtxoAddress(address, UTXO_NETWORKS[name])).toBeNull();
      expect(utxoAddressProblem(address, UTXO_NETWORKS[name])).toBe('malformed');
    }
    expect(() => addressScriptHex(address, BTC)).toThrow(/not a valid Bitcoin address/);
  });

  it.each([
    // valid BIP-350 strings whose outputs are anyone-can-spend today: future witness versions,
    // a v1 program that is not 32 bytes, and BIP-433's pay-to-anchor
    ['bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7kt5nd6y', 'bitcoin'],
    ['BC1SW50QGDZ25J', 'bitcoin'],
    ['bc1zw508d6qejxtdg4y5r3zarvaryvaxxpcs', 'bitcoin'],
    ['bc1z2rksukkjr8', 'bitcoin'],
    ['tb1rgv5m6uvdk3kc7qsuz0c79v88ycr5w4wa', 'bitcoin-testnet'],
    ['bc1pfeessrawgf', 'bitcoin'],
    // well-formed taproot addresses (Bitcoin Core key_io_valid.json) whose programs are no x
    // coordinate on secp256k1: nobody can ever spend from them
    ['bcrt1pfwxjqvtt4tcxrtdluukfmy2dv7xd2qzdfy6kajv5nwn4yam3wxkq3553uh', 'bitcoin-regtest'],
    ['bcrt1p39a4s4vdcw9kqa8w2t0rp7aj8kfxyw7mce5sk5d70x6wnnmpvt7skf2kxy', 'bitcoin-regtest'],
    ['ltc1z2rksr0qemr', 'litecoin'],
    ['rltc1z2rksr02mh3', 'litecoin-regtest'],
  ] as const)('refuse %s on %s: not a destination a custodian pays to', (address, network) => {
    expect(normalizeUtxoAddress(address, UTXO_NETWORKS[network])).toBeNull();
    expect(utxoAddressProblem(address, UTXO_NETWORKS[network])).toBe('malformed');
  });
});

describe('why an address is refused', () => {
  it.each([
    ['bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu', 'litecoin'],
    ['1FsSia9rv4NeEwvJ2GvXrX7LyxYspbN2mo', 'litecoin'],
    ['ltc1qvyq0cc6rahyvsazfdje0twl7ez82ndmueysm0u', 'bitcoin'],
    ['LT2KVaAy1ppRuxRgrS5RNU3vBsy7RibPeA', 'bitcoin'],
    ['MHrYRxAiMNBTku3eoDHwhA1LQGDjUStZW2', 'bitcoin'],
    ['tb1qcrh3yqn4nlleplcez2yndq2ry8h9ncg3qh7n54', 'bitcoin'],
    ['tb1qcrh3yqn4nlleplcez2yndq2ry8h9ncg3qh7n54', 'bitcoin-regtest'],
    ['bcrt1qdavt4j2sd7dlhqsavtnfxvzppw6k7qy97tmnu9', 'litecoin-regtest'],
    ['rltc1q6gc8w797ydk3dpx6wqw2qdetgdvas7pc6ugduv', 'bitcoin-regtest'],
    ['QQa3ryzpFxYaCdiyNQ7P6N5MfczxUTFPKh', 'bitcoin-regtest'],
    ['mhvxDH5DX1xUdLgSSqYgRyQXBiSY9SSSuc', 'litecoin'],
    // Bitcoin's P2SH form: Litecoin Core still reads it (as MCwCgYjt3HcMNerfqPqg5jcJm7aCy89KeQ),
    // but the string is a Bitcoin address, so Coffer asks for the M form instead
    ['36j4NfKv6Akva9amjWrLG6MuSQym1GuEmm', 'litecoin'],
    ['2MxFajLApXpYk4VodBSZSt7rw8y4ryABkfA', 'litecoin-regtest'],
  ] as const)('%s on %s belongs to another network', (address, network) => {
    expect(normalizeUtxoAddress(address, UTXO_NETWORKS[network])).toBeNull();
    expect(utxoAddressProblem(address, UTXO_NETWORKS[network])).toBe('other-network');
  });

  it('an EVM address belongs to another kind of chain on every UTXO network', () => {
    for (const evm of ['0x52908400098527886E0F7030069857D2E4169EE7', '0xde709f2102306220921060314715629080e2fb77']) {
      for (const name of UTXO_NETWORK_NAMES) {
        expect(utxoAddressProblem(evm, UTXO_NETWORKS[name])).toBe('other-family');
      }
    }
    expect(utxoAddressProblem('0x5290840009852788', BTC)).toBe('malformed');
  });

  it('testnet and regtest share base58 version bytes: their legacy addresses are valid on both', () => {
    for (const n of ['bitcoin-testnet', 'bitcoin-regtest'] as const) {
      expect(normalizeUtxoAddress('mzK2FFDEhxqHcmrJw1ysqFkVyhUULo45hZ', UTXO_NETWORKS[n])).not.toBeNull();
    }
    expect(normalizeUtxoAddress('mpWvR79tSrA5xeziB6mjNYWdaVRwBpgnUP', UTXO_NETWORKS['litecoin-testnet'])).not.toBeNull();
  });
});

describe('refusal codes', () => {
  it('answer 3008, 3056 and 3057 with a message in both languages', () => {
    expect(UTXO_ADDRESS_PROBLEM_CODES).toEqual({
      malformed: ErrorCode.INVALID_ADDRESS,
      'other-network': 3056,
      'other-family': 3057,
    });
    expect(errorMessages['en-US'][3056]).toBe('This address belongs to another network');
    expect(errorMessages['en-US'][3057]).toBe('This address belongs to another kind of chain');
    expect(errorMessages['zh-CN'][3056]).toBe('该地址属于其他网络');
    expect(errorMessages['zh-CN'][3057]).toBe('该地址属于其他类型的区块链');
  });

  it('name the UTXO networks an address belongs to, none for an EVM address', () => {
    expect(utxoNetworksOf('bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu').map((p) => p.name)).toEqual(['bitcoin']);
    expect(utxoNetworksOf('mpWvR79tSrA5xeziB6mjNYWdaVRwBpgnUP').map((p) => p.name)).toEqual([
      'bitcoin-testnet',
      'bitcoin-regtest',
      'litecoin-testnet',
      'litecoin-regtest',
    ]);
    expect(utxoNetworksOf('0x52908400098527886E0F7030069857D2E4169EE7')).toEqual([]);
  });

  it('come from network records nobody can change', () => {
    expect(Object.isFrozen(BTC)).toBe(true);
    expect(Object.isFrozen(BTC.bip32)).toBe(true);
  });
});

describe('output scripts', () => {
  it('map back to no address when they are not a standard destination', () => {
    expect(scriptHexToAddress('6a0568656c6c6f', BTC)).toBeNull(); // OP_RETURN
    expect(scriptHexToAddress('520250ed', BTC)).toBeNull(); // witness v2
    expect(scriptHexToAddress('210279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798ac', BTC)).toBeNull(); // P2PK
    expect(scriptHexToAddress('zz', BTC)).toBeNull();
  });

  it('of a BIP-84 deposit address are P2WPKH of the key hash', () => {
    const address = deriveBip84Address(BIP84_ZPUB, 0, BTC);
    expect(addressScriptHex(address, BTC)).toMatch(/^0014[0-9a-f]{40}$/);
    expect(scriptHexToAddress(addressScriptHex(address, BTC), BTC)).toBe(address);
  });
});
