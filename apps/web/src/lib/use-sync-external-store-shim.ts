/**
 * Stands in for `use-sync-external-store/shim` in the build (vite.config.ts): react-i18next
 * imports that React 17 polyfill, which on React 19 only hands back React's own hook but
 * still ships its fallback to the first screen (0.4 kB gzip, decision 026).
 */
export { useSyncExternalStore } from 'react';
