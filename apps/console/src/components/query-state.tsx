import type { UseQueryResult } from '@tanstack/react-query';
import { Alert, Button, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { errorText } from '@coffer/api-client/api-error';

/** Loading spinner or the refusal with a retry; renders nothing once data is there. */
export function QueryState({ query }: { query: Pick<UseQueryResult, 'isPending' | 'isError' | 'error' | 'refetch'> }) {
  const { t } = useTranslation();
  if (query.isError) {
    return (
      <Alert
        type="error"
        showIcon
        title={errorText(query.error, t('errors.loadFailed'))}
        action={<Button onClick={() => void query.refetch()}>{t('common.retry')}</Button>}
      />
    );
  }
  if (query.isPending) return <Spin />;
  return null;
}
