import type { OperatorRole } from '@coffer/contract';

/** Any operator, whatever their roles (each operator holds at least one). */
export const ANY_ROLE = 'any' as const;
export type RouteRight = OperatorRole | typeof ANY_ROLE;

/**
 * The one table of who may call which admin route (decision 045), keyed by method and the
 * route's URL as Fastify registers it (request.routeOptions.url). The operator guard looks every
 * admin request up here; a route missing from it is refused to everyone (fail closed), and a
 * test walks the OpenAPI document and the registered routes to keep this table complete.
 *
 * support: users, their security events, ending sessions and holds, two-factor resets,
 *          linked accounts.
 * finance: withdrawal review, ledger adjustments and their approvals, stuck payouts,
 *          incidents, chain funding, ledger audits, acknowledging alerts.
 * admin:   operators and roles, networks, content, activities, swap settings and house limits,
 *          disabling users.
 * any:     dashboard, audit trail, metrics, the alerts list.
 */
export const ROUTE_ROLES: Readonly<Record<string, RouteRight>> = {
  // everyone
  'GET /api/admin/dashboard': ANY_ROLE,
  'GET /api/admin/audit-trail': ANY_ROLE,
  'GET /api/admin/metrics': ANY_ROLE,
  'GET /api/admin/alerts': ANY_ROLE,

  // support
  'GET /api/admin/users': 'support',
  'GET /api/admin/users/:uid': 'support',
  'POST /api/admin/users/:uid/sign-out': 'support',
  'POST /api/admin/users/:uid/holds/end': 'support',
  'POST /api/admin/users/:uid/two-factor-reset': 'support',
  'POST /api/admin/users/:uid/two-factor-reset/cancel': 'support',
  'POST /api/admin/users/:uid/links': 'support',
  'POST /api/admin/users/:uid/links/:id/remove': 'support',

  // finance
  'GET /api/admin/withdraw/open': 'finance',
  'POST /api/admin/withdraw/:id/approve': 'finance',
  'POST /api/admin/withdraw/:id/reject': 'finance',
  'POST /api/admin/withdraw/:id/cancel-on-chain': 'finance',
  'POST /api/admin/withdraw/:id/fail': 'finance',
  'POST /api/admin/ledger/adjust': 'finance',
  'GET /api/admin/ledger/adjustments': 'finance',
  'GET /api/admin/ledger/adjust-requests': 'finance',
  'POST /api/admin/ledger/adjust-requests/:id/approve': 'finance',
  'POST /api/admin/ledger/adjust-requests/:id/reject': 'finance',
  'GET /api/admin/ledger/audit': 'finance',
  'POST /api/admin/ledger/audit/run': 'finance',
  'GET /api/admin/chain/incidents': 'finance',
  'POST /api/admin/chain/incidents/:id/resolve': 'finance',
  'POST /api/admin/chain/fund': 'finance',
  'POST /api/admin/alerts/:id/acknowledge': 'finance',

  // admin
  'GET /api/admin/operators': 'admin',
  'POST /api/admin/operators/:uid/roles': 'admin',
  'POST /api/admin/users/:uid/disable': 'admin',
  'POST /api/admin/users/:uid/enable': 'admin',
  'GET /api/admin/networks': 'admin',
  'POST /api/admin/networks/:id': 'admin',
  'GET /api/admin/swap/pairs': 'admin',
  'POST /api/admin/swap/pairs/:id': 'admin',
  'GET /api/admin/swap/house-limits': 'admin',
  'POST /api/admin/swap/house-limits': 'admin',
  'POST /api/swap/admin/houseLimit': 'admin',
  'GET /api/admin/activities/list': 'admin',
  'GET /api/admin/activities/payouts': 'admin',
  'POST /api/admin/activities/create': 'admin',
  'POST /api/admin/activities/update': 'admin',
  'POST /api/admin/activities/fund': 'admin',
  'POST /api/admin/uploads': 'admin',
  'GET /api/admin/banners': 'admin',
  'GET /api/admin/banners/:id': 'admin',
  'POST /api/admin/banners/create': 'admin',
  'POST /api/admin/banners/:id/update': 'admin',
  'POST /api/admin/banners/reorder': 'admin',
  'POST /api/admin/banners/:id/retire': 'admin',
  'GET /api/admin/notices': 'admin',
  'GET /api/admin/notices/:id': 'admin',
  'POST /api/admin/notices/create': 'admin',
  'POST /api/admin/notices/:id/retire': 'admin',
  'GET /api/admin/help': 'admin',
  'GET /api/admin/help/articles/:id': 'admin',
  'POST /api/admin/help/topics/create': 'admin',
  'POST /api/admin/help/topics/:id/update': 'admin',
  'POST /api/admin/help/topics/:id/delete': 'admin',
  'POST /api/admin/help/articles/create': 'admin',
  'POST /api/admin/help/articles/:id/update': 'admin',
  'POST /api/admin/help/articles/:id/delete': 'admin',
};

/** The table's key of a request: HEAD is answered by its GET route. */
export function routeKey(method: string, url: string | undefined): string {
  return `${method === 'HEAD' ? 'GET' : method} ${url ?? ''}`;
}

/** What a route needs, or undefined when it is not in the table (refused to everyone). */
export function rightFor(method: string, url: string | undefined): RouteRight | undefined {
  return Object.hasOwn(ROUTE_ROLES, routeKey(method, url)) ? ROUTE_ROLES[routeKey(method, url)] : undefined;
}
