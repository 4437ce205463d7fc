import { NavBar, TabBar } from 'antd-mobile';
import { type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { BillIcon, HomeIcon, ListIcon, SwapIcon, UserIcon } from '../../components/icons';
import { removeBootScreen } from '../boot';
import { LiveEvents } from '../live-events';
import {
  billShortcutFor,
  composeDocumentTitle,
  isNavBarHidden,
  isTabPath,
  metaFor,
  normalizePath,
  TABS,
  titleKeyFor,
} from '../route-meta';

const TAB_ICONS: Record<(typeof TABS)[number]['path'], ReactNode> = {
  '/': <HomeIcon />,
  '/swap': <SwapIcon />,
  '/bill/all': <ListIcon />,
  '/profile': <UserIcon />,
};

/** react-router keeps the position in the history stack in history.state.idx. */
function hasHistoryEntry(): boolean {
  const state = window.history.state as { idx?: number } | null;
  return typeof state?.idx === 'number' && state.idx > 0;
}

export function AppLayout() {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const path = normalizePath(location.pathname);
  const meta = metaFor(path);
  const billType = billShortcutFor(path);

  const titleKey = titleKeyFor(location.pathname, location.search);

  // The guard sets the title on navigation; this keeps it right after a language switch.
  useEffect(() => {
    document.title = composeDocumentTitle(t(titleKey), t('app.name'));
  }, [t, titleKey]);

  // The first rendered page replaces the boot screen of index.html.
  useEffect(removeBootScreen, []);

  const goBack = () => {
    if (hasHistoryEntry()) navigate(-1);
    else navigate('/', { replace: true });
  };

  return (
    <div className="app-shell">
      <LiveEvents />
      {isNavBarHidden(path) ? null : (
        <NavBar
          className="app-nav-bar"
          onBack={goBack}
          backIcon
          right={
            billType ? (
              <button
                type="button"
                className="app-nav-action"
                aria-label={t('nav.records')}
                onClick={() => navigate(`/bill?type=${billType}`)}
              >
                <BillIcon />
              </button>
            ) : null
          }
        >
          {t(titleKey)}
        </NavBar>
      )}
      <main className={meta.flush ? 'app-main' : 'app-main app-main--padded'}>
        <Outlet />
      </main>
      {isTabPath(path) ? (
        <TabBar className="app-tab-bar" activeKey={path} onChange={(key) => navigate(key)} safeArea>
          {TABS.map((tab) => (
            <TabBar.Item key={tab.path} icon={TAB_ICONS[tab.path]} title={t(tab.label)} />
          ))}
        </TabBar>
      ) : null}
    </div>
  );
}
