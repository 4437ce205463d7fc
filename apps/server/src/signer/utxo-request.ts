import { z } from 'zod';
import type { UtxoSignRequest } from '../chain/utxo/payout-tx.ts';
import { MAX_INPUTS_PER_BATCH, MAX_PAYOUTS_PER_BATCH } from '../chain/utxo/payout-tx.ts';

/** Base units (satoshis) as a decimal string: a UTXO amount never exceeds 21e14 (well inside int64). */
const sats = z
  .string()
  .regex(/^\d{1,16}$/)
  .transform((v) => BigInt(v));
const index = z.number().int().min(0).max(0x7fffffff);

/** A UTXO payout signing request as it travels (amounts as decimal strings). */
export const utxoSignRequestSchema = z.object({
  chainId: z.number().int().positive(),
  inputs: z
    .array(
      z.object({
        txid: z.string().regex(/^[0-9a-f]{64}$/),
        vout: z.number().int().min(0).max(100_000),
        value: sats,
        branch: z.union([z.literal(0), z.literal(1)]),
        index,
      }),
    )
    .min(1)
    .max(MAX_INPUTS_PER_BATCH),
  payouts: z
    .array(z.object({ address: z.string().min(14).max(90), value: sats }))
    .min(1)
    .max(MAX_PAYOUTS_PER_BATCH),
  change: z.object({ index, value: sats }).nullable(),
});

/** The request as JSON for the channel (bigints as decimal strings). */
export function utxoWire(req: UtxoSignRequest): object {
  return {
    chainId: req.chainId,
    inputs: req.inputs.map((i) => ({ ...i, value: i.value.toString() })),
    payouts: req.payouts.map((p) => ({ address: p.address, value: p.value.toString() })),
    change: req.change ? { index: req.change.index, value: req.change.value.toString() } : null,
  };
}
