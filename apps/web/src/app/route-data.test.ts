import { BATCH_MAX_PATHS, batchQuery } from '@coffer/contract/batch';
import { describe, expect, it } from 'vitest';
import { ROUTE_DATA } from './route-data';

describe('ROUTE_DATA', () => {
  // index.html's script asks for "*" and the page's GETs in one GET /api/batch: a list the
  // server refuses (a path twice, too many) would leave every page to ask for its data late.
  it("makes, for every page, a batch the server's contract accepts", () => {
    for (const [route, paths] of Object.entries(ROUTE_DATA)) {
      if (route === '*') continue;
      const all = [...ROUTE_DATA['*']!, ...paths];
      expect(all.length, route).toBeLessThanOrEqual(BATCH_MAX_PATHS);
      expect(batchQuery.safeParse({ paths: all.join(',') }).success, route).toBe(true);
    }
  });
});
