import type { Config } from '../../../config.ts';
import type { Database } from '../../../db/client.ts';
import { ExternalFeedRateSource } from './external-feed.ts';
import { OperatorRateTable } from './operator-table.ts';
import type { RateSource } from './source.ts';

export { ExternalFeedRateSource } from './external-feed.ts';
export { OperatorRateTable } from './operator-table.ts';
export type { PairConfig, PricedPair, RateSource } from './source.ts';

/** RATE_FEED_URL set: the external feed; otherwise the operator's table. */
export function createRateSource(config: Config, database: Database): RateSource {
  if (config.RATE_FEED_URL) {
    return new ExternalFeedRateSource(database, { url: config.RATE_FEED_URL, maxAgeSeconds: config.RATE_FEED_MAX_AGE_SECONDS });
  }
  return new OperatorRateTable(database);
}
