// First: no schema may be created before zod is told not to use eval (see the module).
import './lib/zod-jitless';
import 'virtual:uno.css';
import './styles/global.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { AppProvider } from './app/provider';
import { createAppRouter } from './app/router';
import { loadAntdLocale } from './lib/antd-locale';
import { initI18n } from './lib/i18n';
import { queryClient } from './lib/query-client';
import { registerServiceWorker } from './pwa/register';
import { applyLanguage, useLanguageStore } from './stores/language';
import { applyTheme, useThemeStore } from './stores/theme';

const language = useLanguageStore.getState().language;
applyTheme(useThemeStore.getState().theme);
// Started now (zh-CN is antd's built-in default; the English pack is preloaded by
// index.html), it is ready before the router has its first page, so that page renders
// with the right texts at once.
if (language !== 'zh-CN') void loadAntdLocale(language);

// The guard titles the first page, so the texts come before the router.
void initI18n(language).then(() => {
  // Saving the first pick keeps the accept-language header in step with the interface.
  applyLanguage(language);
  const router = createAppRouter(queryClient);
  createRoot(document.getElementById('app')!).render(
    <StrictMode>
      <AppProvider>
        <RouterProvider router={router} />
      </AppProvider>
    </StrictMode>,
  );
});

// After load: the offline shell for the next visit (issue 10 item 6).
registerServiceWorker();
