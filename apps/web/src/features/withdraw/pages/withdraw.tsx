import { UploadOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { PagePlaceholder } from '../../../components/page-placeholder';

export default function WithdrawPage() {
  const { t } = useTranslation();
  return <PagePlaceholder icon={<UploadOutline />} hint={t('pages.withdrawHint')} />;
}
