import { BillOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { PagePlaceholder } from '../../../components/page-placeholder';

export default function BillListPage() {
  const { t } = useTranslation();
  return <PagePlaceholder icon={<BillOutline />} hint={t('pages.billHint')} />;
}
