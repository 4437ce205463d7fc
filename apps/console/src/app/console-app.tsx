import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp, ConfigProvider, type ThemeConfig } from 'antd';
import enUS from 'antd/locale/en_US';
import zhCN from 'antd/locale/zh_CN';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { RouterProvider } from 'react-router';
import { i18n } from '../lib/i18n';
import { STYLE_NONCE } from '../lib/style-nonce';
import { BRAND_PRIMARY } from './brand';
import { router } from './router';

const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false, staleTime: 10_000 } },
});

/**
 * The phone app's look: its teal as the primary and link colour (buttons, links, selected menu
 * items, focus rings), and its page background.
 */
export const CONSOLE_THEME: ThemeConfig = {
  token: {
    colorPrimary: BRAND_PRIMARY,
    colorLink: BRAND_PRIMARY,
    colorInfo: BRAND_PRIMARY,
    colorBgLayout: '#f5f6f8',
    borderRadius: 8,
  },
  components: {
    Layout: { headerBg: '#ffffff', siderBg: '#0f2b2b', triggerBg: '#0f2b2b' },
    Menu: { darkItemBg: '#0f2b2b', darkSubMenuItemBg: '#0f2b2b', darkItemSelectedBg: BRAND_PRIMARY },
  },
};

function Localized() {
  const { i18n: current } = useTranslation();
  return (
    <ConfigProvider
      locale={current.language === 'en-US' ? enUS : zhCN}
      csp={{ nonce: STYLE_NONCE }}
      theme={CONSOLE_THEME}
      // No space inside two-character Chinese labels: the label stays the text people (and tests) read.
      button={{ autoInsertSpace: false }}
    >
      <AntApp>
        <RouterProvider router={router} />
      </AntApp>
    </ConfigProvider>
  );
}

export function ConsoleApp() {
  document.documentElement.lang = i18n.language;
  return (
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <Localized />
      </QueryClientProvider>
    </I18nextProvider>
  );
}
