import { type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { BillIcon, HomeIcon, ListIcon, SwapIcon, UserIcon } from '../../components/icons';
import { OfflineBanner } from '../../components/offline-banner';
import { preloadFeedback } from '../../lib/notify';
import { removeBootScreen } from '../boot';
import { LiveEvents } from '../live-events';
import {
  billShortcutFor,
  composeDocumentTitle,
  isNavBarHidden,
  isTabPath,
  metaFor,
  normalizePath,
  type TABS,
  titleKeyFor,
} from '../route-meta';
import { AppNavBar } from './app-nav-bar';
import { AppTabBar } from './app-tab-bar';

const TAB_ICONS: Record<(typeof TABS)[number]['path'], ReactNode> = {
  '/': <HomeIcon />,
  '/swap': <SwapIcon />,
  '/bill/all': <ListIcon />,
  '/profile': <UserIcon />,
};

/** Long enough for the first page's own chunks and requests to go first. */
const FEEDBACK_PRELOAD_DELAY_MS = 1000;

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

  // The pop-up code, fetched once the first page has painted: in memory before it is needed.
  useEffect(() => {
    const timer = setTimeout(preloadFeedback, FEEDBACK_PRELOAD_DELAY_MS);
    return () => clearTimeout(timer);
  }, []);

  const goBack = () => {
    if (hasHistoryEntry()) navigate(-1);
    else navigate('/', { replace: true });
  };

  return (
    <div className="app-shell">
      <LiveEvents />
      <OfflineBanner />
      {isNavBarHidden(path) ? null : (
        <AppNavBar
          onBack={goBack}
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
        </AppNavBar>
      )}
      <main className={meta.flush ? 'app-main' : 'app-main app-main--padded'}>
        <Outlet />
      </main>
      {isTabPath(path) ? <AppTabBar icons={TAB_ICONS} /> : null}
    </div>
  );
}
