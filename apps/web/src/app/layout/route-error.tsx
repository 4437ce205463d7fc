import { useEffect, useEffectEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router';
import { removeBootScreen } from '../boot';

/** Chrome, Firefox, Safari and Vite's CSS preload each word a chunk that did not arrive their own way. */
const CHUNK_FAILURE_RE = /dynamically imported module|importing a module script|preload CSS|error loading dynamically/i;

function isChunkFailure(error: unknown): boolean {
  return error instanceof Error && CHUNK_FAILURE_RE.test(error.message);
}

/** The browser keeps a failed module fetch for the page's life: only a reload fetches again. */
function reload() {
  window.location.reload();
}

/**
 * Shown when a page fails while rendering. It renders inside the layout (router.tsx), so the
 * nav and tab bars stay (decision 021). Plain elements: this lives in the entry bundle,
 * where antd's Button would cost 4 kB.
 */
export function RouteError() {
  const { t } = useTranslation();
  const error = useRouteError();
  const chunkFailure = isChunkFailure(error);
  useEffect(removeBootScreen, []);
  // A part that could not be fetched is fetched again once the connection is back.
  useEffect(() => {
    if (!chunkFailure) return;
    window.addEventListener('online', reload);
    return () => window.removeEventListener('online', reload);
  }, [chunkFailure]);
  return (
    <div className="page-center">
      <p className="page-hint">{t(chunkFailure ? 'errors.pageLoadFailed' : 'errors.unexpected')}</p>
      <button type="button" className="home-button home-button--outline" onClick={reload}>
        {t('common.retry')}
      </button>
    </div>
  );
}

/** A page whose code could not be fetched (offline, or a deploy removed the chunk). */
export function PageLoadFailed({ onRetry }: { onRetry: () => Promise<void> }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  useEffect(removeBootScreen, []);
  const retry = () => {
    setBusy(true);
    void onRetry().finally(() => setBusy(false));
  };
  // The connection coming back is the moment a retry can work: it is made without a tap.
  const retryOnline = useEffectEvent(retry);
  useEffect(() => {
    const onOnline = () => retryOnline();
    window.addEventListener('online', onOnline);
    return () => window.removeEventListener('online', onOnline);
  }, []);
  return (
    <div className="page-center">
      <p className="page-hint">{t('errors.pageLoadFailed')}</p>
      <button type="button" className="home-button home-button--outline" disabled={busy} onClick={retry}>
        {t('common.retry')}
      </button>
    </div>
  );
}

/** The layout itself failed (it has no frame to keep): the same notice, full page. */
export function RootError() {
  return (
    <div className="app-main app-main--padded">
      <RouteError />
    </div>
  );
}
