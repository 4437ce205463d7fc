// antd's tab bar look, without its component: its items are divs a keyboard cannot reach.
import 'antd-mobile/es/components/tab-bar/tab-bar.css';
import 'antd-mobile/es/components/safe-area/safe-area.css';
import type { KeyboardEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { AppNavLink } from '../../lib/nav';
import { TABS } from '../../lib/route-meta';

type TabPath = (typeof TABS)[number]['path'];

/** Links open on Enter; Space opens a tab too, as it does on the buttons the bar looks like. */
function openOnSpace(event: KeyboardEvent<HTMLAnchorElement>) {
  if (event.key !== ' ') return;
  event.preventDefault();
  event.currentTarget.click();
}

/**
 * The bottom tab bar: real links (Tab reaches them, Enter or Space opens them, the current
 * one is aria-current="page"), styled by antd-mobile's tab bar classes.
 */
export function AppTabBar({ icons }: { icons: Record<TabPath, ReactNode> }) {
  const { t } = useTranslation();
  return (
    <nav className="adm-tab-bar app-tab-bar" aria-label={t('nav.tabs')}>
      <div className="adm-tab-bar-wrap">
        {TABS.map((tab) => (
          <AppNavLink
            key={tab.path}
            to={tab.path}
            end
            onKeyDown={openOnSpace}
            className={({ isActive }) => `adm-tab-bar-item app-tab-bar-item${isActive ? ' adm-tab-bar-item-active' : ''}`}
          >
            <span className="adm-tab-bar-item-icon">{icons[tab.path]}</span>
            <span className="adm-tab-bar-item-title adm-tab-bar-item-title-with-icon">{t(tab.label)}</span>
          </AppNavLink>
        ))}
      </div>
      {/* antd's SafeArea markup: its component would bring antd-mobile's JS to the first screen. */}
      <div className="adm-safe-area adm-safe-area-position-bottom" />
    </nav>
  );
}
