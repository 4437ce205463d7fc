import { TextArea } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useDemoStore } from '../hooks/use-demo-store';

export default function KeepalivePage() {
  const { t } = useTranslation();
  const { note, setNote } = useDemoStore();
  return (
    <div className="card flex flex-col gap-3">
      <label htmlFor="keepalive-note" className="page-hint">
        {t('demo.keepaliveHint')}
      </label>
      <TextArea id="keepalive-note" value={note} onChange={setNote} rows={4} />
    </div>
  );
}
