import type { ComponentType } from 'react';

type PageModule = { default: ComponentType };

/**
 * Every page but the landing one, by route path: a chunk of its own (router.tsx). Each
 * import below carries the list of chunks to preload with its page, and together those lists
 * weighed about 2 kB gzip in the entry; the signed-out `/` paints without them (decision
 * 026). index.html's inline script preloads this chunk on any other path, and the layout loads
 * it once the first page is up, so a tap never waits for it.
 */
export const pages: Readonly<Record<string, () => Promise<PageModule>>> = {
  swap: () => import('../features/swap/pages/swap'),
  'bill/all': () => import('../features/bill/pages/bill-all'),
  profile: () => import('../features/profile/pages/profile'),
  bill: () => import('../features/bill/pages/bill-list'),
  'bill/detail': () => import('../features/bill/pages/bill-detail'),
  charge: () => import('../features/charge/pages/charge'),
  withdraw: () => import('../features/withdraw/pages/withdraw'),
  transfer: () => import('../features/transfer/pages/transfer'),
  login: () => import('../features/auth/pages/login'),
  register: () => import('../features/auth/pages/register'),
  'forgot-password': () => import('../features/auth/pages/forgot-password'),
  settings: () => import('../features/settings/pages/settings'),
  'settings/2fa': () => import('../features/two-factor/pages/two-factor'),
  'settings/passkeys': () => import('../features/passkeys/pages/passkeys'),
  'settings/security': () => import('../features/security/pages/security'),
  'settings/password': () => import('../features/auth/pages/change-password'),
  'settings/address-book': () => import('../features/address-book/pages/address-book'),
  helpCenter: () => import('../features/help-center/pages/help-center'),
  noticeCenter: () => import('../features/notice-center/pages/notice-center'),
  'noticeCenter/detail': () => import('../features/notice-center/pages/notice-detail'),
  'banner/detail': () => import('../features/banner/pages/banner-detail'),
  'banner/ranking': () => import('../features/banner/pages/banner-ranking'),
  '*': () => import('../features/misc/pages/not-found'),
};

/** The demo pages (docs/product.md §10.4): one chunk for all of them (demo-routes.ts). */
export function loadDemoPages() {
  return import('../features/demo/pages');
}
