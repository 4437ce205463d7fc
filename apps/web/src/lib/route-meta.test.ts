import { describe, expect, it } from 'vitest';
import {
  billShortcutFor,
  DEMO_PATHS,
  composeDocumentTitle,
  isNavBarHidden,
  isPublicPath,
  isTabPath,
  metaFor,
  needsCurrentUser,
  normalizePath,
  ROUTE_META,
  TABS,
  titleKeyFor,
} from './route-meta';

describe('guard path rules (docs/product.md §2.3, §4)', () => {
  it('does not ask for the current user on the public pages', () => {
    for (const path of ['/', '/login', '/register', '/forgot-password', '/swap', '/banner/detail', '/banner/ranking']) {
      expect(needsCurrentUser(path), path).toBe(false);
      expect(isPublicPath(path), path).toBe(true);
    }
  });

  it('asks for the current user everywhere else, unknown paths included', () => {
    for (const path of [
      '/profile',
      '/bill/all',
      '/bill',
      '/bill/detail',
      '/charge',
      '/withdraw',
      '/transfer',
      '/settings',
      '/helpCenter',
      '/noticeCenter',
      '/noticeCenter/detail',
      '/counter',
      '/does-not-exist',
    ]) {
      expect(needsCurrentUser(path), path).toBe(true);
    }
  });

  it('treats a trailing slash as the same path', () => {
    expect(needsCurrentUser('/login/')).toBe(false);
    expect(needsCurrentUser('/profile/')).toBe(true);
    expect(normalizePath('')).toBe('/');
    expect(normalizePath('//')).toBe('/');
  });

  it('matches paths exactly, including case', () => {
    expect(needsCurrentUser('/Login')).toBe(true);
    expect(needsCurrentUser('/swap/extra')).toBe(true);
  });
});

describe('nav bar and tab bar rules (docs/product.md §2)', () => {
  it('hides the nav bar on the tab pages and on /login only', () => {
    const hidden = Object.keys(ROUTE_META).filter(isNavBarHidden).sort();
    expect(hidden).toEqual(['/', '/bill/all', '/login', '/profile', '/swap']);
  });

  it('has the four tabs in order', () => {
    expect(TABS.map((tab) => tab.path)).toEqual(['/', '/swap', '/bill/all', '/profile']);
    expect(isTabPath('/profile')).toBe(true);
    expect(isTabPath('/bill')).toBe(false);
  });

  it('puts a bill shortcut on charge, withdraw and transfer', () => {
    expect(billShortcutFor('/charge')).toBe('charge');
    expect(billShortcutFor('/withdraw')).toBe('withdraw');
    expect(billShortcutFor('/transfer')).toBe('transfer');
    expect(billShortcutFor('/swap')).toBeUndefined();
    expect(billShortcutFor('/bill')).toBeUndefined();
  });

  it('removes the padding of the page wrapper on /profile only', () => {
    const flush = Object.entries(ROUTE_META)
      .filter(([, meta]) => meta.flush)
      .map(([path]) => path);
    expect(flush).toEqual(['/profile']);
  });
});

describe('titles', () => {
  it('titles /bill by its type', () => {
    expect(titleKeyFor('/bill', '?type=charge')).toBe('routes.billCharge');
    expect(titleKeyFor('/bill', '?type=withdraw')).toBe('routes.billWithdraw');
    expect(titleKeyFor('/bill', '?type=swap')).toBe('routes.billSwap');
    expect(titleKeyFor('/bill', '?type=transfer')).toBe('routes.billTransfer');
    expect(titleKeyFor('/bill', '?type=other')).toBe('routes.bill');
    expect(titleKeyFor('/bill', '')).toBe('routes.bill');
  });

  it('titles the notice center as the help center', () => {
    expect(titleKeyFor('/noticeCenter', '')).toBe('routes.helpCenter');
    expect(titleKeyFor('/noticeCenter/detail', '?id=1')).toBe('routes.helpCenter');
  });

  it('knows the demo pages in every build', () => {
    expect(metaFor('/counter').title).toBe('routes.counter');
    expect(metaFor('/nowhere').title).toBe('routes.notFound');
    expect(DEMO_PATHS).toEqual(['/charts', '/counter', '/counter/index1', '/keepalive', '/mock', '/scroll-cache', '/unocss']);
  });

  it('composes the document title with the product name', () => {
    expect(composeDocumentTitle('Settings', 'Coffer')).toBe('Settings - Coffer');
    expect(composeDocumentTitle(undefined, 'Coffer')).toBe('Coffer');
    expect(composeDocumentTitle('', 'Coffer')).toBe('Coffer');
  });
});
