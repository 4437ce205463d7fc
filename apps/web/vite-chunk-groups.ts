import { build, type Plugin, type Rollup } from 'vite';
import { FIRST_SCREEN_EXTRAS } from './vite-route-preload.ts';

/**
 * Fewer files for a signed-in first open (decision 065): one chunk (and so one stylesheet) for
 * what the signed-in tab pages and `/charge` share, and one for what the signed-out landing
 * fetches after its first paint (which every signed-in page needs too), instead of a chunk
 * for every set of pages that shares a module (for antd-mobile's components, nearly one each).
 * Over HTTP/1.1 each file costs a round trip on one of six connections (562 ms over Fast 3G):
 * with about 80 files `/charge` showed its address after 9.6 s.
 *
 * The groups are read from a first build with the automatic splitting (`probeChunks`): the
 * module graph alone cannot tell, as barrel files (antd-mobile's, ahooks') make any module that
 * imports one component reach all of them, while the chunks hold only what is used.
 * - `afterPaint`: the chunks the signed-out landing fetches after its first paint (the router,
 *   the table of pages, the toast, the guest's widgets) that its initial set does not hold:
 *   the same files' contents as before, in one file.
 * - `shell`: the chunks the page providers, the signed-in home's wallet, the tab pages and
 *   `/charge` need, but not the chunks of those pages themselves (their own modules), nor what
 *   the signed-out landing loads (its initial set and `afterPaint`). These sets are closed
 *   under static imports, so the shell imports them and never the reverse, and the landing
 *   loads no more than before.
 * Stylesheets a page imports for their side effect alone (wallet.css, chain.css) had a chunk of
 * their own, with no JavaScript, and so a request of their own: the probe's build drops such
 * chunks, so their modules are found by their importers (`ProbedStylesheets`) and join the group
 * of the first importer found in `afterPaint`, else in `shell` (decision 069). One imported by
 * the landing's initial set stays with the entry, for the cascade order.
 */
const SHELL_ROOTS = ['/src/lib/page-providers.tsx', '/src/lib/current-user.ts', '/src/lib/query-client.ts'];
const SHELL_PAGES = [
  '/src/features/home/components/wallet-home.tsx',
  '/src/features/swap/pages/swap.tsx',
  '/src/features/bill/pages/bill-all.tsx',
  '/src/features/profile/pages/profile.tsx',
  '/src/features/charge/pages/charge.tsx',
];
/** /charge's own chunk and the chunks its first screen imports lazily (its QR encoder), in one file (decision 069). */
const CHARGE_FIRST_SCREEN = ['/src/features/charge/pages/charge.tsx', ...(FIRST_SCREEN_EXTRAS.charge ?? [])];
const LANDING_ROUTE = '/src/features/home/pages/home.tsx';
const LANDING_AFTER_PAINT = [
  '/src/app/start-router.tsx',
  '/src/app/pages.ts',
  '/src/lib/toast.ts',
  '/src/features/home/components/guest-extras.tsx',
  '/src/features/home/components/banner-carousel.tsx',
];

export interface ChunkGroups {
  afterPaint: Set<string>;
  shell: Set<string>;
  /** /charge's own chunk with its QR encoder, which its first screen imports at once. */
  charge: Set<string>;
}

/** Every stylesheet module of the probe's build and the modules that import it. */
export type ProbedStylesheets = Map<string, readonly string[]>;

export interface Probe {
  chunks: Rollup.OutputChunk[];
  stylesheets: ProbedStylesheets;
}

const STYLESHEET = /\.css(\?|$)/;

type Chunk = Rollup.OutputChunk;

/** The groups' modules, from the chunks (and stylesheets' importers) of a build with automatic splitting. */
export function chunkGroups({ chunks, stylesheets }: Probe): ChunkGroups {
  const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const chunkOf = (suffix: string) => {
    const chunk =
      chunks.find((c) => c.facadeModuleId?.endsWith(suffix)) ?? chunks.find((c) => c.moduleIds.some((id) => id.endsWith(suffix)));
    if (!chunk) throw new Error(`coffer-chunk-groups: no chunk for ${suffix}`);
    return chunk;
  };
  const closure = (roots: Chunk[]) => {
    const seen = new Set<string>();
    const stack = roots.map((c) => c.fileName);
    while (stack.length > 0) {
      const file = stack.pop()!;
      if (seen.has(file)) continue;
      seen.add(file);
      stack.push(...(byFile.get(file)?.imports ?? []));
    }
    return seen;
  };
  const modules = (files: Iterable<string>) => new Set([...files].flatMap((file) => byFile.get(file)?.moduleIds ?? []));
  // The landing's initial set: the entry and the landing route, which index.html preloads.
  const initial = closure([...chunks.filter((c) => c.isEntry), chunkOf(LANDING_ROUTE)]);
  const landing = closure([...initial].map((file) => byFile.get(file)!).concat(LANDING_AFTER_PAINT.map(chunkOf)));
  const afterPaintFiles = [...landing].filter((file) => !initial.has(file));
  const pageFiles = new Set(SHELL_PAGES.map((suffix) => chunkOf(suffix).fileName));
  const pageModules = modules(pageFiles);
  const shellFiles = [...closure([...SHELL_ROOTS, ...SHELL_PAGES].map(chunkOf))].filter(
    (file) => !landing.has(file) && !pageFiles.has(file),
  );
  const chargeFiles = [...closure(CHARGE_FIRST_SCREEN.map(chunkOf))].filter((file) => !landing.has(file) && !shellFiles.includes(file));
  const groups = { afterPaint: modules(afterPaintFiles), shell: modules(shellFiles), charge: modules(chargeFiles) };
  const initialModules = modules(initial);
  for (const [stylesheet, importers] of stylesheets) {
    if ([initialModules, groups.afterPaint, groups.shell, groups.charge].some((group) => group.has(stylesheet))) continue;
    if (importers.some((id) => initialModules.has(id))) continue;
    if (importers.some((id) => groups.afterPaint.has(id))) groups.afterPaint.add(stylesheet);
    else if (importers.some((id) => groups.shell.has(id) || pageModules.has(id))) groups.shell.add(stylesheet);
  }
  return groups;
}

/**
 * Builds the app once with the automatic splitting, in memory (`COFFER_CHUNK_PROBE` tells the
 * config to leave the groups and the output plugins out), and returns its chunks with every
 * stylesheet's importers (a chunk holding stylesheets alone is dropped from the output).
 */
export async function probeChunks(configFile: string, mode: string): Promise<Probe> {
  process.env.COFFER_CHUNK_PROBE = '1';
  const stylesheets: ProbedStylesheets = new Map();
  const importersOfStylesheets: Plugin = {
    name: 'coffer-probe-stylesheets',
    buildEnd() {
      for (const id of this.getModuleIds()) {
        if (STYLESHEET.test(id)) stylesheets.set(id, [...(this.getModuleInfo(id)?.importers ?? [])]);
      }
    },
  };
  try {
    const output = await build({
      configFile,
      mode,
      logLevel: 'silent',
      plugins: [importersOfStylesheets],
      build: { write: false, emptyOutDir: false },
    });
    const outputs = (Array.isArray(output) ? output : [output]) as Rollup.RolldownOutput[];
    return { chunks: outputs.flatMap((o) => o.output.filter((item): item is Chunk => item.type === 'chunk')), stylesheets };
  } finally {
    delete process.env.COFFER_CHUNK_PROBE;
  }
}
