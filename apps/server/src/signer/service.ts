import { type Hex, keccak256, type TransactionSerializable } from 'viem';
import { z } from 'zod';
import type { Keyring } from '../chain/keys.ts';
import type { SignerJournal } from './journal.ts';
import { classify, dailyCap, PolicyRefusal, type SignerPolicy, type TxFields } from './policy.ts';
import { normalizeUtxoAddress } from '../chain/utxo/address.ts';
import { utxoParamsByChainId } from '../chain/utxo/params.ts';
import type { UtxoSigned, UtxoSignRequest } from '../chain/utxo/payout-tx.ts';

const uint = z
  .string()
  .regex(/^\d{1,78}$/)
  .transform((v) => BigInt(v));
const hex = z.string().regex(/^0x([0-9a-fA-F]{2})*$/) as unknown as z.ZodType<Hex>;
const addr = z.string().regex(/^0x[0-9a-fA-F]{40}$/) as unknown as z.ZodType<`0x${string}`>;

/** A signing request as it travels (amounts as decimal strings). */
export const signRequestSchema = z.object({
  key: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('hot') }),
    z.object({ kind: z.literal('deposit'), index: z.number().int().min(0).max(0x7fffffff) }),
  ]),
  hint: z
    .discriminatedUnion('purpose', [
      z.object({ purpose: z.literal('gas_topup'), depositIndex: z.number().int().min(0).max(0x7fffffff) }),
      z.object({ purpose: z.enum(['withdrawal', 'cold', 'cancel']) }),
    ])
    .optional(),
  tx: z.discriminatedUnion('type', [
    z.object({
      type: z.literal('legacy'),
      chainId: z.number().int().positive(),
      nonce: z.number().int().min(0),
      to: addr,
      value: uint,
      data: hex,
      gas: uint,
      gasPrice: uint,
    }),
    z.object({
      type: z.literal('eip1559'),
      chainId: z.number().int().positive(),
      nonce: z.number().int().min(0),
      to: addr,
      value: uint,
      data: hex,
      gas: uint,
      maxFeePerGas: uint,
      maxPriorityFeePerGas: uint,
    }),
  ]),
});
export type SignRequest = z.infer<typeof signRequestSchema>;

export type SignOutcome = { signed: Hex; seq: number } | { refused: string; message: string };
export type UtxoSignOutcome = (UtxoSigned & { seq: number }) | { refused: string; message: string };

const total = (values: bigint[]) => values.reduce((a, b) => a + b, 0n);

/**
 * The signer's core: policy check, daily limits from the journal, signature, journal line
 * (fsync'd) — one request at a time, so two concurrent payouts cannot both fit the same
 * remaining daily allowance.
 */
export class SignerService {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly keys: Keyring,
    private policy: SignerPolicy,
    private readonly journal: SignerJournal,
    private readonly clock: () => number = Date.now,
  ) {}

  /** A new policy (re-read by the operator with SIGHUP); applies to the next request. */
  setPolicy(policy: SignerPolicy): void {
    this.policy = policy;
  }

  async info() {
    const utxoXpubs: Record<string, string> = {};
    for (const c of this.policy.utxoChains) {
      const params = utxoParamsByChainId(c.chainId);
      if (params) utxoXpubs[String(c.chainId)] = await this.keys.utxoAccountXpub(params);
    }
    return {
      xpub: this.keys.xpub,
      hotAddress: this.keys.hotAddress,
      chainIds: [...this.policy.chains.map((c) => c.chainId), ...this.policy.utxoChains.map((c) => c.chainId)],
      utxoXpubs,
    };
  }

  signUtxo(req: UtxoSignRequest): Promise<UtxoSignOutcome> {
    const run = this.queue.then(() => this.signUtxoNow(req));
    this.queue = run.catch(() => {});
    return run;
  }

  /**
   * A UTXO payout (docs/decisions/051-utxo-payouts.md): the signer computes the miner fee from
   * the request (inputs - payouts - change; a wrong input value makes the signature invalid,
   * BIP-143), derives the change address itself, and counts the payouts against its limits.
   * Replacements spend the same inputs: counted once per first input, like a nonce on EVM.
   */
  private async signUtxoNow(req: UtxoSignRequest): Promise<UtxoSignOutcome> {
    const now = this.clock();
    const chain = this.policy.utxoChains.find((c) => c.chainId === req.chainId);
    const params = utxoParamsByChainId(req.chainId);
    const refuse = (refused: string, message: string) => ({ refused, message });
    if (!chain || !params) return refuse('unknown_chain', `chain ${req.chainId} is not in the signer's UTXO policy`);
    for (const p of req.payouts) {
      if (normalizeUtxoAddress(p.address, params) !== p.address || p.value <= 0n) {
        return refuse('no_recipient', `payout to ${p.address} is not a valid ${params.label} payment`);
      }
    }
    const paid = total(req.payouts.map((p) => p.value));
    const fee = total(req.inputs.map((i) => i.value)) - paid - (req.change?.value ?? 0n);
    if (fee <= 0n || fee > chain.maxFee) return refuse('fee_over_cap', `miner fee ${fee} outside (0, ${chain.maxFee}] base units`);
    if (paid > chain.native.perTxMax) {
      return refuse('over_tx_limit', `payouts of ${paid} base units above the per-transaction limit ${chain.native.perTxMax}`);
    }
    const first = req.inputs.map((i) => `${i.txid}:${i.vout}`).sort()[0] as string;
    const used = this.journal.windowTotal(req.chainId, 'withdrawal', 'native', now);
    const counted = this.journal.countedForNonce(req.chainId, 'withdrawal', 'native', first, 0);
    const added = paid > counted ? paid - counted : 0n;
    if (used + added > chain.native.perDayMax) {
      return refuse(
        'over_daily_limit',
        `${used} of ${chain.native.perDayMax} base units used in the last 24 hours; ${paid} more is refused`,
      );
    }
    const signed = await this.keys.signUtxo(params, req);
    const entry = this.journal.append({
      at: now,
      chainId: req.chainId,
      from: first,
      nonce: 0,
      purpose: 'withdrawal',
      asset: 'native',
      to: req.payouts.length === 1 ? (req.payouts[0] as { address: string }).address : `${req.payouts.length} payouts`,
      amount: paid.toString(),
      fee: fee.toString(),
      txHash: signed.txid,
    });
    return { ...signed, seq: entry.seq };
  }

  sign(req: SignRequest): Promise<SignOutcome> {
    const run = this.queue.then(() => this.signNow(req));
    this.queue = run.catch(() => {});
    return run;
  }

  private async signNow(req: SignRequest): Promise<SignOutcome> {
    const now = this.clock();
    const t = req.tx;
    const fields: TxFields = { ...t, feePerGas: t.type === 'legacy' ? t.gasPrice : t.maxFeePerGas };
    const account = req.key.kind === 'hot' ? this.keys.hotAccount() : this.keys.depositAccount(req.key.index);
    const own = { hot: this.keys.hotAddress, deposit: (i: number) => this.keys.depositAddress(i) };
    let c: ReturnType<typeof classify>;
    try {
      c = classify(this.policy, own, req.key, fields, req.hint);
      const cap = dailyCap(this.policy, t.chainId, c);
      if (cap) {
        const total = this.journal.windowTotal(t.chainId, c.purpose, c.asset, now);
        const counted = this.journal.countedForNonce(t.chainId, c.purpose, c.asset, account.address, t.nonce);
        const added = c.amount > counted ? c.amount - counted : 0n;
        if (total + added > cap.cap) {
          throw new PolicyRefusal(
            cap.refusal,
            `${total} of ${cap.cap} ${c.code} base units used in the last 24 hours; ${c.amount} more is refused`,
          );
        }
      }
    } catch (err) {
      if (err instanceof PolicyRefusal) return { refused: err.refusal, message: err.message };
      throw err;
    }
    const tx: TransactionSerializable =
      t.type === 'legacy'
        ? { type: 'legacy', chainId: t.chainId, nonce: t.nonce, to: t.to, value: t.value, data: t.data, gas: t.gas, gasPrice: t.gasPrice }
        : {
            type: 'eip1559',
            chainId: t.chainId,
            nonce: t.nonce,
            to: t.to,
            value: t.value,
            data: t.data,
            gas: t.gas,
            maxFeePerGas: t.maxFeePerGas,
            maxPriorityFeePerGas: t.maxPriorityFeePerGas,
          };
    const signed = await account.signTransaction(tx);
    // journal first: a signature that is not on the journal never leaves the signer
    const entry = this.journal.append({
      at: now,
      chainId: t.chainId,
      from: account.address,
      nonce: t.nonce,
      purpose: c.purpose,
      asset: c.asset,
      to: c.recipient,
      amount: c.amount.toString(),
      fee: c.fee.toString(),
      txHash: keccak256(signed),
    });
    return { signed, seq: entry.seq };
  }
}
