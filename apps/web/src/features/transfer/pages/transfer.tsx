import { SendOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { PagePlaceholder } from '../../../components/page-placeholder';

export default function TransferPage() {
  const { t } = useTranslation();
  return <PagePlaceholder icon={<SendOutline />} hint={t('pages.transferHint')} />;
}
