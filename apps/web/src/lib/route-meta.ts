/**
 * Route rules of docs/product.md §2 and §4 as plain data, so the router, the layout, the guard and
 * the unit tests all read the same table.
 */

export const BILL_TYPES = ['charge', 'withdraw', 'swap', 'transfer'] as const;
export type BillType = (typeof BILL_TYPES)[number];

export interface RouteMeta {
  /** i18n key of the page title. */
  title: string;
  /** The page wrapper has no padding (docs/product.md §2: /profile). */
  flush?: boolean;
  /** One of the spec's demo pages: listed under Developer in settings (docs/product.md §10.4). */
  demo?: boolean;
}

export const ROUTE_META: Record<string, RouteMeta> = {
  '/': { title: 'routes.home' },
  '/swap': { title: 'routes.swap' },
  '/bill/all': { title: 'routes.billAll' },
  '/profile': { title: 'routes.profile', flush: true },
  '/bill': { title: 'routes.bill' },
  '/bill/detail': { title: 'routes.billDetail' },
  '/charge': { title: 'routes.charge' },
  '/withdraw': { title: 'routes.withdraw' },
  '/transfer': { title: 'routes.transfer' },
  '/login': { title: 'routes.login' },
  '/register': { title: 'routes.register' },
  '/forgot-password': { title: 'routes.forgotPassword' },
  '/settings': { title: 'routes.settings' },
  '/settings/2fa': { title: 'routes.twoFactor' },
  '/settings/passkeys': { title: 'routes.passkeys' },
  '/settings/security': { title: 'routes.security' },
  '/settings/password': { title: 'routes.changePassword' },
  '/settings/address-book': { title: 'routes.addressBook' },
  '/helpCenter': { title: 'routes.helpCenter' },
  // Spec §2: the notice center and its detail are both titled as the help center.
  '/noticeCenter': { title: 'routes.helpCenter' },
  '/noticeCenter/detail': { title: 'routes.helpCenter' },
  '/banner/detail': { title: 'routes.bannerDetail' },
  '/banner/ranking': { title: 'routes.bannerRanking' },
  '/charts': { title: 'routes.charts', demo: true },
  '/counter': { title: 'routes.counter', demo: true },
  '/counter/index1': { title: 'routes.counterIndex1', demo: true },
  '/keepalive': { title: 'routes.keepalive', demo: true },
  '/mock': { title: 'routes.mock', demo: true },
  '/scroll-cache': { title: 'routes.scrollCache', demo: true },
  '/unocss': { title: 'routes.unocss', demo: true },
};

export const NOT_FOUND_META: RouteMeta = { title: 'routes.notFound' };

/** The four tabs, in bar order (docs/product.md §2). */
export const TABS = [
  { path: '/', label: 'tabs.home' },
  { path: '/swap', label: 'tabs.swap' },
  { path: '/bill/all', label: 'tabs.otc' },
  { path: '/profile', label: 'tabs.profile' },
] as const;

export const NAV_BAR_HIDDEN_PATHS: readonly string[] = ['/', '/login', '/swap', '/profile', '/bill/all'];

/** Paths the guard lets through without asking the server who the user is (docs/product.md §2.3, §4). */
export const PUBLIC_PATHS: readonly string[] = [
  '/',
  '/login',
  '/register',
  '/forgot-password',
  '/swap',
  '/banner/detail',
  '/banner/ranking',
];

/** Pages whose nav bar carries a shortcut to their own bill list. */
const BILL_SHORTCUTS: Readonly<Record<string, BillType>> = {
  '/charge': 'charge',
  '/withdraw': 'withdraw',
  '/transfer': 'transfer',
};

/** "/profile/" and "/profile" are the same route. */
export function normalizePath(pathname: string): string {
  const trimmed = pathname.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}

export function metaFor(pathname: string): RouteMeta {
  return ROUTE_META[normalizePath(pathname)] ?? NOT_FOUND_META;
}

/** The demo pages, in table order: every build serves them, lazily (docs/product.md §10.4). */
export const DEMO_PATHS: readonly string[] = Object.keys(ROUTE_META).filter((path) => ROUTE_META[path]?.demo);

export function isPublicPath(pathname: string): boolean {
  return PUBLIC_PATHS.includes(normalizePath(pathname));
}

/** Guard step 4 runs for every other path, unknown ones included. */
export function needsCurrentUser(pathname: string): boolean {
  return !isPublicPath(pathname);
}

export function isNavBarHidden(pathname: string): boolean {
  return NAV_BAR_HIDDEN_PATHS.includes(normalizePath(pathname));
}

export function isTabPath(pathname: string): boolean {
  const path = normalizePath(pathname);
  return TABS.some((tab) => tab.path === path);
}

export function isBillType(value: unknown): value is BillType {
  return typeof value === 'string' && (BILL_TYPES as readonly string[]).includes(value);
}

const BILL_TITLES: Record<BillType, string> = {
  charge: 'routes.billCharge',
  withdraw: 'routes.billWithdraw',
  swap: 'routes.billSwap',
  transfer: 'routes.billTransfer',
};

/** Title key for a location; /bill takes its title from ?type=. */
export function titleKeyFor(pathname: string, search: string): string {
  const path = normalizePath(pathname);
  if (path === '/bill') {
    const type = new URLSearchParams(search).get('type');
    if (isBillType(type)) return BILL_TITLES[type];
  }
  return metaFor(path).title;
}

/** The bill type the nav bar's right-hand icon opens, if the page has one. */
export function billShortcutFor(pathname: string): BillType | undefined {
  return BILL_SHORTCUTS[normalizePath(pathname)];
}

/** "Title - Coffer", or the product name alone (guard step 2). */
export function composeDocumentTitle(title: string | undefined, productName: string): string {
  return title ? `${title} - ${productName}` : productName;
}
