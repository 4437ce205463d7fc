import { Button } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useDemoStore } from '../hooks/use-demo-store';

export function CounterCard() {
  const { t } = useTranslation();
  const { count, increment, decrement } = useDemoStore();
  return (
    <div className="card flex flex-col items-center gap-3">
      <div className="text-2xl" data-testid="counter-value">
        {t('demo.counterValue', { count })}
      </div>
      <div className="flex gap-3">
        <Button onClick={decrement}>{t('demo.decrement')}</Button>
        <Button color="primary" onClick={increment}>
          {t('demo.increment')}
        </Button>
      </div>
    </div>
  );
}
