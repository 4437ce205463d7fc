import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

export interface PrecompressOptions {
  /** Also write .br (the phone app: every byte counts on a phone; operators are few). */
  brotli: boolean;
}

/** Below ~1 kB the headers cost more than compression saves. */
const MIN_COMPRESS_BYTES = 1024;
const COMPRESSIBLE = /\.(js|css|html|svg|json|txt)$/;

/**
 * Writes .gz (and .br) next to every text asset of a build, so a static server that serves
 * precompressed files (@fastify/static's preCompressed option, nginx gzip_static) sends them
 * at maximum compression without spending CPU per request. Shared by apps/web and apps/console.
 */
export function precompress({ brotli }: PrecompressOptions): Plugin {
  let outDir = 'dist';
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      // .vite/ holds the build manifest, which is not served.
      if (name.startsWith('.')) return [];
      const path = join(dir, name);
      return statSync(path).isDirectory() ? walk(path) : [path];
    });
  return {
    name: 'coffer-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir.startsWith('/') ? config.build.outDir : join(config.root, config.build.outDir);
    },
    closeBundle() {
      for (const file of walk(outDir)) {
        if (!COMPRESSIBLE.test(file)) continue;
        const source = readFileSync(file);
        if (source.length < MIN_COMPRESS_BYTES) continue;
        writeFileSync(`${file}.gz`, gzipSync(source, { level: 9 }));
        if (brotli) {
          writeFileSync(`${file}.br`, brotliCompressSync(source, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
        }
      }
    },
  };
}
