import { useTranslation } from 'react-i18next';

export function AuthHeader({ title, subtitle }: { title: string; subtitle?: string }) {
  const { t } = useTranslation();
  return (
    <header className="pt-6 pb-4">
      <img src="/favicon.svg" alt={t('app.name')} width={48} height={48} className="block mb-4" />
      <h1 className="m-0 text-2xl font-semibold">{title}</h1>
      {subtitle ? <p className="page-hint mt-2">{subtitle}</p> : null}
    </header>
  );
}
