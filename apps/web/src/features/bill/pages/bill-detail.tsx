import { FileOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { PagePlaceholder } from '../../../components/page-placeholder';

export default function BillDetailPage() {
  const { t } = useTranslation();
  return <PagePlaceholder icon={<FileOutline />} hint={t('pages.billHint')} />;
}
