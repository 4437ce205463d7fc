import type { Database } from '../../../db/client.ts';
import { loadPairConfigs, type PricedPair, type RateSource } from './source.ts';

/** The default source: the operator's own mid rates in swap_pairs. */
export class OperatorRateTable implements RateSource {
  readonly name = 'operator';
  constructor(private readonly database: Database) {}

  listPairs(): Promise<PricedPair[]> {
    return loadPairConfigs(this.database);
  }

  async getPair(fromCurrencyId: number, toCurrencyId: number): Promise<PricedPair | null> {
    const [pair] = await loadPairConfigs(this.database, { from: fromCurrencyId, to: toCurrencyId });
    return pair ?? null;
  }
}
