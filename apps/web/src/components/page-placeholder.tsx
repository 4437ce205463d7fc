import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The common frame of a screen whose content is not loaded yet or is empty: an icon,
 * a short explanation and the empty-list note.
 */
export function PagePlaceholder({ icon, hint, children }: { icon: ReactNode; hint: string; children?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <section className="card page-center" data-testid="page-placeholder">
      <div className="text-4xl" style={{ color: 'var(--adm-color-primary)' }} aria-hidden>
        {icon}
      </div>
      <p className="page-hint">{hint}</p>
      <p className="page-hint text-xs">{t('common.empty')}</p>
      {children}
    </section>
  );
}
