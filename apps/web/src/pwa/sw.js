/**
 * Coffer's service worker (decision 025). Built by src/pwa/build.ts, which fills in the
 * version and the shell list from the bundle: index.html and every file it names (entry
 * script, stylesheet, modulepreloads, both locale chunks), the manifest and the icons.
 *
 * - Hashed files under /assets/ never change: cache-first, cached as they are first used.
 * - Page loads go to the network first (a new deploy is seen at once, and an open page never
 *   gets a mix of two builds); only when that fails does the cached index.html answer, so
 *   an offline start shows the app, which then says it is offline.
 * - /api/* is never touched: balances come from the server or not at all, never from here.
 * - /console/* (the operator console, its own app) is left to the network as well.
 */
const VERSION = '__COFFER_SW_VERSION__';
/** @type {string[]} */
const SHELL = /*coffer:shell*/ [];
const CACHE = `coffer-${VERSION}`;
const INDEX = '/index.html';

const passThrough = (path) => path === '/api' || path.startsWith('/api/') || path === '/console' || path.startsWith('/console/');

/** A hashed file another version already holds is copied, not downloaded again. */
async function precache(cache, path) {
  if (path.startsWith('/assets/')) {
    const held = await caches.match(path);
    if (held) return cache.put(path, held);
  }
  // index.html and the unhashed files are revalidated, never taken stale from the HTTP cache.
  const response = await fetch(path, { cache: path.startsWith('/assets/') ? 'default' : 'no-cache' });
  if (!response.ok) throw new Error(`precache ${path}: ${response.status}`);
  return cache.put(path, response);
}

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      await Promise.all(SHELL.map((path) => precache(cache, path)));
      // Every file is named by its content, and pages load network-first: the new worker can
      // take over at once without an open page mixing builds.
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) if (name.startsWith('coffer-') && name !== CACHE) await caches.delete(name);
      // The page request starts while the worker boots, instead of after.
      await self.registration.navigationPreload?.enable();
      await self.clients.claim();
    })(),
  );
});

async function page(event) {
  try {
    const preloaded = await event.preloadResponse;
    if (preloaded) return preloaded;
    return await fetch(event.request);
  } catch (error) {
    const shell = await caches.match(INDEX, { cacheName: CACHE });
    if (shell) return shell;
    throw error;
  }
}

async function cacheFirst(request) {
  const cache = await caches.open(CACHE);
  const held = await cache.match(request, { ignoreVary: true });
  if (held) return held;
  const response = await fetch(request);
  // Only whole, successful answers (a missing file falls back to index.html as text/html).
  if (response.ok && response.status === 200 && !String(response.headers.get('content-type')).startsWith('text/html')) {
    await cache.put(request, response.clone());
  }
  return response;
}

/**
 * The page that registered the worker names the hashed files it has already loaded (its
 * route chunks, beyond the shell): kept too, from the browser's HTTP cache where they still
 * are, so the very next visit needs none of them from the network.
 */
self.addEventListener('message', (event) => {
  const urls = event.data?.type === 'coffer:keep' && Array.isArray(event.data.urls) ? event.data.urls : [];
  const kept = urls
    .map((url) => new URL(String(url), self.location.origin))
    .filter((url) => url.origin === self.location.origin && url.pathname.startsWith('/assets/'));
  event.waitUntil(Promise.all(kept.map((url) => cacheFirst(new Request(url.pathname)).catch(() => undefined))));
});

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || passThrough(url.pathname)) return;
  if (request.mode === 'navigate') {
    event.respondWith(page(event));
  } else if (url.pathname.startsWith('/assets/') || SHELL.includes(url.pathname)) {
    event.respondWith(cacheFirst(request));
  }
});

/**
 * A Web Push from the server (docs/decisions/054): the payload is JSON {title, body, url, tag}
 * (the contract's pushPayload), already in the user's language. A push that does not parse
 * still shows something: a browser may stop delivering to a worker that shows nothing.
 */
self.addEventListener('push', (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = {};
  }
  const title = typeof data.title === 'string' ? data.title : 'Coffer';
  const url = typeof data.url === 'string' && data.url.startsWith('/') ? data.url : '/noticeCenter';
  event.waitUntil(
    self.registration.showNotification(title, {
      body: typeof data.body === 'string' ? data.body : '',
      tag: typeof data.tag === 'string' ? data.tag : undefined,
      icon: '/icons/icon-192.png',
      data: { url },
    }),
  );
});

/** Tapping the notification opens its notice: in an open window of the app if there is one. */
self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = new URL(event.notification.data?.url ?? '/noticeCenter', self.location.origin).href;
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const open = windows.find((client) => new URL(client.url).origin === self.location.origin);
      if (open) {
        await open.focus();
        return open.navigate(url);
      }
      return self.clients.openWindow(url);
    })(),
  );
});
