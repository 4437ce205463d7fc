import { useLayoutEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useDemoStore } from '../hooks/use-demo-store';

const ROWS = Array.from({ length: 100 }, (_, index) => index + 1);

export default function ScrollCachePage() {
  const { t } = useTranslation();

  useLayoutEffect(() => {
    window.scrollTo(0, useDemoStore.getState().scrollY);
    // Kept as the user scrolls, not read on leaving: by the time this effect is cleaned up
    // the page may already be hidden (a Suspense boundary showing the next page's fallback)
    // and the window scrolled up to the shorter document (900 px came back as 402).
    const keep = () => useDemoStore.getState().setScrollY(window.scrollY);
    window.addEventListener('scroll', keep, { passive: true });
    return () => window.removeEventListener('scroll', keep);
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
