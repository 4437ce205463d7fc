/**
 * Registers the service worker (src/pwa/sw.js, written to dist/sw.js by src/pwa/build.ts)
 * once the page has loaded, so installing it never competes with the first screen. Only in
 * a production build: the dev server has no sw.js, and a worker would cache its modules.
 */
/**
 * How long after `load` the worker is registered. Its install fetches the whole shell (both
 * locales, every modulepreload): started at `load`, that competed with the first screen's
 * late work on a slow phone (Lighthouse mobile, quiet machine: TBT 103-164 ms against 19 ms
 * without a worker). A repeat visit gains the same either way.
 */
const REGISTER_AFTER_LOAD_MS = 3_000;

export function registerServiceWorker() {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const register = () => {
    const worker = navigator.serviceWorker;
    // No worker only means no offline start; the app itself works the same.
    worker.register('/sw.js').catch(() => {});
    // The first visit loaded its route chunks before the worker took control (later ones pass
    // through it): it keeps those too, so the next visit needs none from the network. An
    // observer, since a file still arriving when control changes is listed only once it is in.
    worker.addEventListener('controllerchange', () =>
      new PerformanceObserver((list) => {
        const urls = list.getEntries().flatMap((entry) => (entry.name.includes('/assets/') ? [entry.name] : []));
        if (urls.length) worker.controller?.postMessage({ type: 'coffer:keep', urls });
      }).observe({ type: 'resource', buffered: true }),
    );
  };
  const later = () => {
    setTimeout(() => {
      if ('requestIdleCallback' in window) requestIdleCallback(register, { timeout: REGISTER_AFTER_LOAD_MS });
      else register();
    }, REGISTER_AFTER_LOAD_MS);
  };
  if (document.readyState === 'complete') later();
  else window.addEventListener('load', later, { once: true });
}
