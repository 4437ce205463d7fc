import { useTranslation } from 'react-i18next';

export default function UnocssPage() {
  const { t } = useTranslation();
  return (
    <div className="rounded-xl p-6 text-center text-white bg-gradient-to-r from-teal-500 to-cyan-600 shadow-lg">
      <p className="m-0 text-lg font-semibold">UnoCSS</p>
      <p className="m-0 mt-2 text-sm opacity-80">{t('demo.unocssHint')}</p>
    </div>
  );
}
