import { Button } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

export default function NotFoundPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <section className="page-center" data-testid="not-found">
      <div className="text-6xl font-bold" style={{ color: 'var(--adm-color-primary)' }}>
        404
      </div>
      <p className="page-hint">{t('pages.notFoundHint')}</p>
      <Button color="primary" fill="outline" onClick={() => navigate('/', { replace: true })}>
        {t('pages.goHome')}
      </Button>
    </section>
  );
}
