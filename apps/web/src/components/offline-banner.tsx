import { useTranslation } from 'react-i18next';
import { useOnline } from '../lib/connectivity';

/** A quiet bar under the top edge while the server cannot be reached (decision 021). */
export function OfflineBanner() {
  const { t } = useTranslation();
  if (useOnline()) return null;
  return (
    <div className="app-offline" role="status">
      {t('errors.offline')}
    </div>
  );
}
