import { Badge, Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useAlerts } from '../api/alerts';

/** The header's alert count: open alerts nobody acknowledged yet, polled every 30 s; opens the alerts page. */
export function AlertBadge() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const alerts = useAlerts();
  const count = alerts.data?.unacknowledged ?? 0;
  return (
    <Badge count={count} overflowCount={99} data-testid="alert-badge">
      <Button
        autoInsertSpace={false}
        danger={count > 0}
        aria-label={t('alerts.badge', { count })}
        onClick={() => navigate('/alerts')}
        data-testid="alert-badge-button"
      >
        {t('nav.alerts')}
      </Button>
    </Badge>
  );
}
