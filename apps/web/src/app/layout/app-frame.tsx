import { type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { BillIcon, HomeIcon, ListIcon, SwapIcon, UserIcon } from '../../components/icons';
import { OfflineBanner } from '../../components/offline-banner';
import { preloadFeedback } from '../../lib/notify';
import { removeBootScreen } from '../boot';
import { LiveEvents } from '../live-events';
import { loadPages } from '../load-pages';
import {
  billShortcutFor,
  composeDocumentTitle,
  isNavBarHidden,
  isTabPath,
  metaFor,
  normalizePath,
  type TABS,
  titleKeyFor,
} from '../../lib/route-meta';
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

export interface AppFrameProps {
  pathname: string;
  search: string;
  /** react-router's navigate, or the landing page's hand-over to it (app/landing.tsx). */
  navigate: (to: string | number, options?: { replace?: boolean }) => void;
  children: ReactNode;
}

/**
 * The frame around every page: offline banner, nav bar, the page, tab bar. No react-router
 * here: the signed-out landing page renders it before the router has loaded (main.tsx);
 * AppLayout (app-layout.tsx) renders it with the router's location and the page outlet.
 */
export function AppFrame({ pathname, search, navigate, children }: AppFrameProps) {
  const { t } = useTranslation();
  const path = normalizePath(pathname);
  const meta = metaFor(path);
  const billType = billShortcutFor(path);

  const titleKey = titleKeyFor(pathname, search);

  // The guard sets the title on navigation; this keeps it right after a language switch.
  useEffect(() => {
    document.title = composeDocumentTitle(t(titleKey), t('app.name'));
  }, [t, titleKey]);

  // The first rendered page replaces the boot screen of index.html.
  useEffect(removeBootScreen, []);

  // The pop-up code and the table of pages (a tap on a link loads its page through it),
  // fetched once the first page has painted: in memory before they are needed.
  useEffect(() => {
    const timer = setTimeout(() => {
      preloadFeedback();
      loadPages().catch(() => undefined);
    }, FEEDBACK_PRELOAD_DELAY_MS);
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
      <main className={meta.flush ? 'app-main' : 'app-main app-main--padded'}>{children}</main>
      {isTabPath(path) ? <AppTabBar icons={TAB_ICONS} /> : null}
    </div>
  );
}
