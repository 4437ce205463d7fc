import { config } from 'zod';

/**
 * Zod compiles object parsers with `new Function` when it may, and probes for that at
 * schema creation. The server's Content-Security-Policy has no 'unsafe-eval', so the probe
 * would be refused and reported as a violation; jitless parsing needs no eval at all.
 * Imported first by main.tsx, before any schema (the contract's included) is created.
 */
config({ jitless: true });
