/**
 * Registers the service worker (src/pwa/sw.js, written to dist/sw.js by src/pwa/build.ts)
 * once the page has loaded, so installing it never competes with the first screen. Only in
 * a production build: the dev server has no sw.js, and a worker would cache its modules.
 */
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
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
