import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { removeBootScreen } from '../boot';

/**
 * Shown when a route module fails to load (e.g. a chunk vanished after a deploy). Plain
 * elements: this lives in the entry bundle, where antd's Button would cost 4 kB.
 */
export function RouteError() {
  const { t } = useTranslation();
  useEffect(removeBootScreen, []);
  return (
    <div className="app-main app-main--padded page-center">
      <p className="page-hint">{t('errors.unexpected')}</p>
      <button type="button" className="home-button home-button--outline" onClick={() => window.location.reload()}>
        {t('common.retry')}
      </button>
    </div>
  );
}
