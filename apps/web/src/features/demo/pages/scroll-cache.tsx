import { useLayoutEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useDemoStore } from '../hooks/use-demo-store';

const ROWS = Array.from({ length: 100 }, (_, index) => index + 1);

export default function ScrollCachePage() {
  const { t } = useTranslation();

  useLayoutEffect(() => {
    window.scrollTo(0, useDemoStore.getState().scrollY);
    return () => useDemoStore.getState().setScrollY(window.scrollY);
  }, []);

  return (
    <div className="flex flex-col gap-2">
      <p className="page-hint">{t('demo.scrollHint')}</p>
      {ROWS.map((n) => (
        <div key={n} className="card">
          {t('demo.row', { n })}
        </div>
      ))}
    </div>
  );
}
