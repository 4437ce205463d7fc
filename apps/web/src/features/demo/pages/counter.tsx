import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { CounterCard } from '../components/counter-card';

export default function CounterPage() {
  const { t } = useTranslation();
  return (
    <div className="flex flex-col gap-4">
      <CounterCard />
      <Link to="/counter/index1">{t('demo.otherPage')}</Link>
    </div>
  );
}
