import type { BatchableGet } from '@coffer/contract/batch';

/**
 * The API GETs (without parameters) a signed-in page's first screen makes, by route path as
 * in pages.ts ("" for "/", "*" for every page). index.html's inline script sends them along
 * with the page's chunks on a first open, and the HTTP client takes each answer once
 * (lib/prefetched.ts), so the page does not wait for its code before asking for its data
 * (decision 057). A path listed here that the page no longer asks for costs one request; one
 * missing only loses the head start. Built into index.html by vite-route-preload.ts. The script
 * asks for them in one request (GET /api/batch, decision 069): each path at most once per page,
 * and only the GETs the contract lets be batched.
 */
export const ROUTE_DATA: Record<string, BatchableGet[]> = {
  // The guard (any protected page) and home (a new tab has no stored user) ask who is signed in.
  '*': ['/getCurrentUser'],
  '': ['/currency/balances', '/swap/rates', '/currency/list'],
  swap: ['/currency/balances', '/swap/rates', '/currency/list'],
  'bill/all': ['/currency/list'],
  profile: ['/notice/unread-count'],
  charge: ['/currency/list', '/currency/onchain', '/deposit/getAddressList', '/configs'],
};
