/**
 * Every TanStack Query key of the console, one entry per server resource, so a page that reads
 * a resource and a write in another feature that makes it stale (an adjustment, an audit run
 * or a withdrawal decision changes the dashboard's figures) name the same key without reaching
 * into each other. Each family starts with its resource's prefix: invalidating `x.all` reaches
 * its pages and details alike.
 */
const ROOT = 'console';

export const queryKeys = {
  currentUser: [ROOT, 'current-user'] as const,
  operatorSession: [ROOT, 'operator-session'] as const,
  currencies: [ROOT, 'currencies'] as const,
  dashboard: [ROOT, 'dashboard'] as const,
  alerts: [ROOT, 'alerts'] as const,
  activities: [ROOT, 'activities'] as const,
  payouts: (activityId: number) => [ROOT, 'payouts', activityId] as const,
  auditTrail: {
    all: [ROOT, 'audit-trail'] as const,
    page: (query: object) => [ROOT, 'audit-trail', query] as const,
  },
  banners: [ROOT, 'banners'] as const,
  help: [ROOT, 'help'] as const,
  notices: {
    all: [ROOT, 'notices'] as const,
    page: (query: object) => [ROOT, 'notices', query] as const,
  },
  adjustRequests: [ROOT, 'adjust-requests'] as const,
  adjustments: {
    all: [ROOT, 'adjustments'] as const,
    page: (query: object) => [ROOT, 'adjustments', query] as const,
  },
  networks: [ROOT, 'networks'] as const,
  operators: [ROOT, 'operators'] as const,
  swapPairs: [ROOT, 'swap-pairs'] as const,
  houseLimits: [ROOT, 'house-limits'] as const,
  users: {
    all: [ROOT, 'users'] as const,
    page: (query: object) => [ROOT, 'users', query] as const,
  },
  /** One user's page; every user's (`all`) when a link names another account too. */
  user: {
    all: [ROOT, 'user'] as const,
    detail: (uid: number) => [ROOT, 'user', uid] as const,
  },
  incidents: {
    all: [ROOT, 'incidents'] as const,
    list: (openOnly: boolean) => [ROOT, 'incidents', openOnly] as const,
  },
  openWithdrawals: [ROOT, 'open-withdrawals'] as const,
};
