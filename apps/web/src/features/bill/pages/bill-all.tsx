import { UnorderedListOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { PagePlaceholder } from '../../../components/page-placeholder';

export default function BillAllPage() {
  const { t } = useTranslation();
  return <PagePlaceholder icon={<UnorderedListOutline />} hint={t('pages.billHint')} />;
}
