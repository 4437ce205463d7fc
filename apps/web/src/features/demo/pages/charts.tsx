import { useTranslation } from 'react-i18next';

const VOLUME = [
  { day: 1, value: 12 },
  { day: 2, value: 19 },
  { day: 3, value: 7 },
  { day: 4, value: 15 },
  { day: 5, value: 22 },
  { day: 6, value: 9 },
  { day: 7, value: 17 },
];

/** A plain SVG bar chart: a chart library would cost more than the whole app. */
export default function ChartsPage() {
  const { t } = useTranslation();
  const max = Math.max(...VOLUME.map((bar) => bar.value));
  return (
    <div className="card">
      <p className="page-hint mb-3">{t('demo.chartsHint')}</p>
      <svg viewBox="0 0 140 60" role="img" aria-label={t('demo.chartsHint')} className="w-full">
        {VOLUME.map(({ day, value }) => {
          const height = (value / max) * 50;
          return (
            <rect key={day} x={(day - 1) * 20 + 4} y={55 - height} width={12} height={height} rx={2} fill="var(--adm-color-primary)" />
          );
        })}
      </svg>
    </div>
  );
}
