import { describe, expect, it } from 'vitest';
import { chunkGroups } from '../../vite-chunk-groups';

type Chunk = Parameters<typeof chunkGroups>[0]['chunks'][number];

const src = (path: string) => `/app/src/${path}`;
const lib = (path: string) => `/app/node_modules/${path}`;

function chunk(fileName: string, moduleIds: string[], imports: string[] = [], isEntry = false): Chunk {
  return { fileName, moduleIds, imports, isEntry, facadeModuleId: moduleIds.at(-1) ?? null } as unknown as Chunk;
}

// A small build with the automatic splitting: the entry and the landing route, what the landing
// fetches after its first paint (router, table of pages, toast, guest widgets), the page
// providers, two tab pages sharing a component chunk, and /charge with a chunk of its own.
const chunks = [
  chunk('entry.js', [src('lib/storage.ts'), src('main.tsx')], ['react.js'], true),
  chunk('react.js', [lib('react/index.js')]),
  chunk('home.js', [src('features/home/pages/home.tsx')], ['entry.js', 'react.js']),
  chunk('router.js', [lib('react-router/index.js'), src('app/start-router.tsx')], ['react.js', 'mask.js']),
  chunk('pages.js', [src('app/pages.ts')]),
  chunk('mask.js', [lib('antd-mobile/es/components/mask/mask.js')], ['react.js']),
  chunk('toast.js', [src('lib/toast.ts')], ['mask.js']),
  chunk('guest.js', [src('features/home/components/guest-extras.tsx')], ['entry.js']),
  chunk('carousel.js', [src('features/home/components/banner-carousel.tsx')]),
  chunk('providers.js', [src('lib/page-providers.tsx')], ['query.js', 'react.js']),
  chunk('query.js', [lib('@tanstack/query-core/index.js'), src('lib/query-client.ts')]),
  chunk('user.js', [src('lib/current-user.ts')], ['query.js']),
  chunk('button.js', [lib('antd-mobile/es/components/button/button.js'), lib('antd-mobile/es/components/button/button.css')], ['mask.js']),
  chunk('wallet.js', [src('features/home/components/wallet-home.tsx')], ['button.js']),
  chunk('swap.js', [src('features/swap/pages/swap.tsx')], ['button.js', 'query.js']),
  chunk('bill.js', [src('features/bill/pages/bill-all.tsx')], ['button.js']),
  chunk('profile.js', [src('features/profile/pages/profile.tsx')], ['entry.js']),
  chunk('qr.js', [src('features/charge/components/address-qr.tsx')]),
  chunk('qrcode.js', [lib('qrcode/lib/browser.js')]),
  chunk('charge.js', [src('features/charge/pages/charge.tsx')], ['qr.js', 'user.js']),
  chunk('withdraw.js', [src('features/withdraw/pages/withdraw.tsx')], ['form.js']),
  chunk('form.js', [lib('rc-field-form/index.js')]),
];

// Stylesheets imported for their side effect alone: the probe's build drops their chunks (no
// JavaScript), so only the module graph names them and their importers.
const stylesheets = new Map<string, string[]>([
  [src('components/wallet/wallet.css'), [src('features/home/components/guest-extras.tsx'), src('features/charge/pages/charge.tsx')]],
  [src('components/wallet/chain.css'), [src('features/charge/pages/charge.tsx'), src('features/withdraw/pages/withdraw.tsx')]],
  [src('styles/global.css'), [src('main.tsx')]],
  [src('features/withdraw/withdraw.css'), [src('features/withdraw/pages/withdraw.tsx')]],
]);

describe('chunkGroups (the signed-in shell, decisions 065 and 069)', () => {
  const groups = chunkGroups({ chunks, stylesheets });

  it('puts what the landing fetches after its first paint in one group, and nothing of its initial set', () => {
    expect([...groups.afterPaint].sort()).toEqual(
      [
        lib('react-router/index.js'),
        src('app/start-router.tsx'),
        src('app/pages.ts'),
        lib('antd-mobile/es/components/mask/mask.js'),
        src('lib/toast.ts'),
        src('features/home/components/guest-extras.tsx'),
        src('features/home/components/banner-carousel.tsx'),
        src('components/wallet/wallet.css'),
      ].sort(),
    );
  });

  it('puts what the signed-in pages need in the shell, with its stylesheets, but not the pages themselves nor the landing sets', () => {
    expect([...groups.shell].sort()).toEqual(
      [
        src('lib/page-providers.tsx'),
        lib('@tanstack/query-core/index.js'),
        src('lib/query-client.ts'),
        src('lib/current-user.ts'),
        lib('antd-mobile/es/components/button/button.js'),
        lib('antd-mobile/es/components/button/button.css'),
        src('features/charge/components/address-qr.tsx'),
        src('components/wallet/chain.css'),
      ].sort(),
    );
  });

  it('puts /charge with its QR encoder, which its first screen imports at once, in one group', () => {
    expect([...groups.charge].sort()).toEqual([lib('qrcode/lib/browser.js'), src('features/charge/pages/charge.tsx')].sort());
  });

  it('leaves the pages outside the shell, their own libraries and stylesheets, and the entry stylesheets alone', () => {
    for (const id of [
      src('features/withdraw/pages/withdraw.tsx'),
      lib('rc-field-form/index.js'),
      src('main.tsx'),
      lib('react/index.js'),
      src('styles/global.css'),
      src('features/withdraw/withdraw.css'),
    ]) {
      expect(groups.shell.has(id) || groups.afterPaint.has(id) || groups.charge.has(id), id).toBe(false);
    }
  });

  it('fails the build when a module it groups by is missing', () => {
    expect(() => chunkGroups({ chunks: chunks.filter((c) => c.fileName !== 'toast.js'), stylesheets })).toThrow(
      /no chunk for \/src\/lib\/toast\.ts/,
    );
  });
});
