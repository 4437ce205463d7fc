import { BellOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { PagePlaceholder } from '../../../components/page-placeholder';

export default function NoticeCenterPage() {
  const { t } = useTranslation();
  return <PagePlaceholder icon={<BellOutline />} hint={t('pages.noticeHint')} />;
}
