import { LoopOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { PagePlaceholder } from '../../../components/page-placeholder';

export default function SwapPage() {
  const { t } = useTranslation();
  return <PagePlaceholder icon={<LoopOutline />} hint={t('pages.swapHint')} />;
}
