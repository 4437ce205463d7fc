// First: no schema may be created before zod is told not to use eval (see the module).
import './lib/zod-jitless';
// antd-mobile's theme variables and touch handling (no component: pages bring their own),
// ahead of the app's styles, which override its base rules.
import 'antd-mobile/es/global';
import 'virtual:uno.css';
import './styles/global.css';
// The progress bar's styles (its code, app/progress.ts, comes with the router) stay in the
// first stylesheet, in the cascade place they had when the router was part of the entry.
import 'nprogress/nprogress.css';
import './app/progress.css';
import { createRoot, type Root } from 'react-dom/client';
import { startLanding } from './app/landing';
import { initI18n } from './lib/i18n';
import { forgetFailedStylesheets } from './lib/lazy-retrying';
import { isSignedIn } from './lib/session';
import { registerServiceWorker } from './pwa/register';
import { applyLanguage, useLanguageStore } from './stores/language';
import { applyTheme, useThemeStore } from './stores/theme';

forgetFailedStylesheets();
const language = useLanguageStore.getState().language;
applyTheme(useThemeStore.getState().theme);

// The guard titles the first page, so the texts come before the router.
void initI18n(language).then(() => {
  // Saving the first pick keeps the accept-language header in step with the interface.
  applyLanguage(language);
  // TanStack Query and antd-mobile's locale come with each page (lib/page-providers.tsx),
  // not here: the signed-out landing page paints without them.
  const root = createRoot(document.getElementById('app')!);
  // The signed-out landing page paints without react-router, which loads after it
  // (app/landing.tsx); every other start goes through the router, whose chunk index.html
  // preloads there.
  if (window.location.pathname === '/' && !isSignedIn()) {
    void import('./features/home/pages/home').then(
      ({ default: HomePage }) => startLanding(root, HomePage),
      () => startRouterWhenOnline(root),
    );
  } else {
    startRouterWhenOnline(root);
  }
});

/**
 * The router's chunk (app/start-router.tsx). When it cannot be fetched (offline, no service
 * worker yet) the boot screen stays and the page reloads once the network is back; a failed
 * module fetch is kept for the page's life, so only a reload fetches it afresh.
 */
function startRouterWhenOnline(root: Root) {
  import('./app/start-router')
    .then(({ startRouter }) => startRouter(root))
    .catch(() => window.addEventListener('online', () => window.location.reload(), { once: true }));
}

// After load: the offline shell for the next visit (decision 025).
registerServiceWorker();
