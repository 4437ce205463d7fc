/**
 * The transactions of UTXO payouts (docs/decisions/051-utxo-payouts.md): which outputs a batch
 * spends (coin selection by @scure/btc-signer), its fee and change, its replacement at a higher
 * fee (same inputs, same payouts, less change), and the signature from the account's keys.
 * Pure functions: the worker (payouts.ts) stores what they return before anything is sent.
 */
import { hex } from '@scure/base';
import { p2wpkh, selectUTXO, Transaction } from '@scure/btc-signer';
import { pubECDSA } from '@scure/btc-signer/utils.js';
import { btcSignerNetwork } from './address.ts';
import type { UtxoParams } from './params.ts';

/** BIP-125: an input sequence below 0xfffffffe lets the transaction be replaced by a higher fee. */
export const RBF_SEQUENCE = 0xffff_fffd;
/**
 * Change below this is left to the miner instead of made an output: a P2WPKH output worth less
 * than it costs to spend is dust (Bitcoin Core's dust limit for P2WPKH at 3 sat/vB is 294).
 */
export const CHANGE_DUST_LIMIT = 294n;
/** The most payouts one batch transaction carries (a bounded size: about 31 vbytes each). */
export const MAX_PAYOUTS_PER_BATCH = 500;
/** The most inputs one batch may spend (about 68 vbytes each; 100 kvB is the standard size limit). */
export const MAX_INPUTS_PER_BATCH = 500;

/** An output Coffer can spend: a deposit (branch 0, the address's index) or a batch's change (branch 1, the batch id). */
export interface SpendableOutput {
  txid: string;
  vout: number;
  value: bigint;
  branch: 0 | 1;
  index: number;
}

export interface Payout {
  address: string;
  value: bigint;
}

/** What the signer is asked to sign: every field decides the transaction, nothing is left to it. */
export interface UtxoSignRequest {
  /** the network's synthetic chain id (params.ts) */
  chainId: number;
  inputs: SpendableOutput[];
  payouts: Payout[];
  /** the change output, last, to the account's change address of index `index` (the batch id); null: none */
  change: { index: number; value: bigint } | null;
}

export interface UtxoSigned {
  hex: string;
  txid: string;
  vsize: number;
}

export interface BatchPlan {
  inputs: SpendableOutput[];
  fee: bigint;
  change: bigint;
}

const sum = (values: bigint[]) => values.reduce((a, b) => a + b, 0n);

/** The P2WPKH script of the account key's `branch/index` (what a selection needs to weigh an input). */
function witnessScript(accountXpubScript: (branch: 0 | 1, index: number) => string, o: SpendableOutput): Uint8Array {
  return hex.decode(accountXpubScript(o.branch, o.index));
}

/**
 * Picks outputs to pay `payouts` at `feeRate` (base units per vbyte) with change to
 * `changeAddress`; null when the outputs cannot pay them and the fee. The fee is the selector's
 * estimate for the signed transaction; change below CHANGE_DUST_LIMIT goes to the fee.
 */
export function planBatch(opts: {
  params: UtxoParams;
  available: SpendableOutput[];
  payouts: Payout[];
  feeRate: bigint;
  changeAddress: string;
  scriptOf: (branch: 0 | 1, index: number) => string;
}): BatchPlan | null {
  const { params, available, payouts, feeRate, changeAddress } = opts;
  const network = btcSignerNetwork(params);
  const candidates = available.map((o) => ({
    txid: hex.decode(o.txid),
    index: o.vout,
    witnessUtxo: { amount: o.value, script: witnessScript(opts.scriptOf, o) },
    sequence: RBF_SEQUENCE,
  }));
  let picked: ReturnType<typeof selectUTXO>;
  try {
    picked = selectUTXO(
      candidates,
      payouts.map((p) => ({ address: p.address, amount: p.value })),
      'default',
      { feePerByte: feeRate, changeAddress, network, createTx: false, bip69: false, dust: CHANGE_DUST_LIMIT },
    );
  } catch {
    return null;
  }
  if (!picked || picked.fee === undefined || picked.inputs.length > MAX_INPUTS_PER_BATCH) return null;
  const chosen = picked.inputs.map((i) => {
    const txid = hex.encode(i.txid as Uint8Array);
    const o = available.find((a) => a.txid === txid && a.vout === i.index);
    if (!o) throw new Error(`selected output ${txid}:${i.index} is not one of the candidates`);
    return o;
  });
  const change = sum(chosen.map((o) => o.value)) - sum(payouts.map((p) => p.value)) - picked.fee;
  if (change < 0n) return null;
  return change < CHANGE_DUST_LIMIT
    ? { inputs: chosen, fee: picked.fee + change, change: 0n }
    : { inputs: chosen, fee: picked.fee, change };
}

/**
 * The replacement of an attempt (BIP-125): the same inputs and payouts, a fee of at least
 * `feeRate` per vbyte and at least the old fee plus `incrementalRate` per vbyte (the node's
 * relay rule), taken from the change; null when the change cannot pay it.
 */
export function replacementFee(opts: {
  inputTotal: bigint;
  payoutTotal: bigint;
  oldFee: bigint;
  vsize: number;
  feeRate: bigint;
  incrementalRate: bigint;
}): { fee: bigint; change: bigint } | null {
  const vsize = BigInt(opts.vsize);
  const wanted = opts.feeRate * vsize;
  const minimum = opts.oldFee + opts.incrementalRate * vsize;
  const fee = wanted > minimum ? wanted : minimum;
  const room = opts.inputTotal - opts.payoutTotal;
  if (fee > room) return null;
  const change = room - fee;
  return change < CHANGE_DUST_LIMIT ? { fee: room, change: 0n } : { fee, change };
}

/**
 * Builds and signs the transaction of `req` exactly as asked: version 2, inputs in order with
 * the replace-by-fee sequence, payouts in order, the change last. `privateKey(branch, index)`
 * is the account key m/84'/coin'/0'/branch/index. Each input's amount is part of what a segwit
 * signature commits to (BIP-143), so an input claimed at another value makes it invalid.
 */
export function signPayout(
  req: UtxoSignRequest,
  params: UtxoParams,
  privateKey: (branch: 0 | 1, index: number) => Uint8Array,
  changeAddress: string,
): UtxoSigned & { fee: bigint } {
  const network = btcSignerNetwork(params);
  const tx = new Transaction({ version: 2, allowUnknownOutputs: false });
  const keys: Uint8Array[] = [];
  for (const input of req.inputs) {
    const key = privateKey(input.branch, input.index);
    keys.push(key);
    tx.addInput({
      txid: hex.decode(input.txid),
      index: input.vout,
      witnessUtxo: { amount: input.value, script: p2wpkh(pubECDSA(key), network).script },
      sequence: RBF_SEQUENCE,
    });
  }
  for (const p of req.payouts) tx.addOutputAddress(p.address, p.value, network);
  if (req.change) tx.addOutputAddress(changeAddress, req.change.value, network);
  keys.forEach((key, i) => {
    tx.signIdx(key, i);
  });
  tx.finalize();
  const fee = sum(req.inputs.map((i) => i.value)) - sum(req.payouts.map((p) => p.value)) - (req.change?.value ?? 0n);
  return { hex: tx.hex, txid: tx.id, vsize: tx.vsize, fee };
}
