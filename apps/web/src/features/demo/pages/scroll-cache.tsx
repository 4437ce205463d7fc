import { useLayoutEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useDemoStore } from '../hooks/use-demo-store';

const ROWS = Array.from({ length: 100 }, (_, index) => index + 1);

export default function ScrollCachePage() {
  const { t } = useTranslation();

  useLayoutEffect(() => {
    window.scrollTo(0, useDemoStore.getState().scrollY);
    // Kept as the user scrolls, not read on leaving: on Back the browser restores the previous
    // entry's scroll (popstate) while this page is still on screen, so by the cleanup the window
    // already stood at the other page's position (900 px came back as 399). That restoring
    // scroll event arrives with the address already changed, hence the path check.
    const here = window.location.pathname;
    const keep = () => {
      if (window.location.pathname === here) useDemoStore.getState().setScrollY(window.scrollY);
    };
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
