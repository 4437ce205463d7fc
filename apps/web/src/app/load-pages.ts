/**
 * The table of page loaders (pages.ts): a chunk of its own, so the signed-out `/` paints
 * without it. The router and the demo routes load pages through it; the layout fetches it
 * once the first page is up.
 */
export function loadPages() {
  return import('./pages');
}
