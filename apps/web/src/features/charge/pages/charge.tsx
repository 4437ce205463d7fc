import { ReceivePaymentOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { PagePlaceholder } from '../../../components/page-placeholder';

export default function ChargePage() {
  const { t } = useTranslation();
  return <PagePlaceholder icon={<ReceivePaymentOutline />} hint={t('pages.chargeHint')} />;
}
