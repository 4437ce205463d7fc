import { Button } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { EmptyState } from './empty-state';

/** A load that failed, with a retry that refetches what the page needs. */
export function LoadFailed({ testId, onRetry }: { testId: string; onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <EmptyState status="disconnected" title={t('wallet.loadFailed')} testId={testId}>
      <Button size="small" color="primary" fill="outline" className="chain-action" onClick={onRetry}>
        {t('common.retry')}
      </Button>
    </EmptyState>
  );
}
