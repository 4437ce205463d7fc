/**
 * Zod compiles object parsers with `new Function` when it may, and probes for that at
 * schema creation. The server's Content-Security-Policy has no 'unsafe-eval', so the probe
 * would be refused and reported as a violation; jitless parsing needs no eval at all.
 * Imported first by main.tsx, before any schema (the contract's included) is created.
 *
 * Zod keeps its settings in `globalThis.__zod_globalConfig` and adopts an object already
 * there when it loads (zod/v4/core/core.js), so the flag is set without importing zod: zod
 * and the schemas load with the pages that use them, not with the landing page (decision
 * 026). zod-jitless.test.ts checks that zod still reads it.
 */
const scope = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
scope.__zod_globalConfig ??= {};
scope.__zod_globalConfig.jitless = true;
