import { describe, expect, it } from 'vitest';
import { depositsIn } from './adapter.ts';
import { addressScriptHex, deriveBip84Address, utxoAccountXpub } from './address.ts';
import { UTXO_NETWORKS } from './params.ts';
import { parseJsonKeepingNumbers } from './rpc.ts';

const params = UTXO_NETWORKS['bitcoin-regtest'];
const xpub = utxoAccountXpub(new Uint8Array(64).fill(3), params);
const watched = deriveBip84Address(xpub, 0, params);
const script = addressScriptHex(watched, params);

// A block as Bitcoin Core 22+ writes it (`scriptPubKey.address`, no `addresses`), numbers as
// JSON numbers: matching goes by script, amounts by their literal text.
const block = parseJsonKeepingNumbers(`{
  "hash": "00aa", "height": 812,
  "tx": [
    {"txid": "c0", "vin": [{"coinbase": "03"}], "vout": [{"n": 0, "value": 50.00000000, "scriptPubKey": {"hex": "${script}", "address": "${watched}"}}]},
    {"txid": "t1", "vin": [{"txid": "c0", "vout": 0}], "vout": [
      {"n": 0, "value": 20999999.99999999, "scriptPubKey": {"hex": "${script.toUpperCase()}"}},
      {"n": 1, "value": 0.1, "scriptPubKey": {"hex": "0014${'11'.repeat(20)}", "address": "elsewhere"}},
      {"n": 2, "value": 0.00000000, "scriptPubKey": {"hex": "${script}"}}
    ]}
  ]
}`) as unknown as Parameters<typeof depositsIn>[0];

describe('UTXO outputs become deposits by their script', () => {
  it('finds the watched output with its exact value, leaves out coinbase, zero and foreign outputs', () => {
    const found = depositsIn(block, new Map([[script, watched]]), 7);
    expect(found).toEqual([
      {
        networkId: 7,
        txHash: 't1',
        logIndex: 0,
        blockNumber: 812n,
        blockHash: '00aa',
        from: '',
        to: watched,
        value: 2_099_999_999_999_999n,
      },
    ]);
  });
});
