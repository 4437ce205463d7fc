/** Set by vite.config.ts: true under `vite` (dev server) and when VITE_DEMO_PAGES=true. */
declare const __COFFER_DEMO_PAGES__: boolean;

/**
 * Demo pages are a developer showcase (DESIGN §8). The constant is replaced at build time,
 * so it always agrees with the build's route list and lets the minifier fold it.
 */
export const DEMO_PAGES_ENABLED: boolean = __COFFER_DEMO_PAGES__;
