import { GiftOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { PagePlaceholder } from '../../../components/page-placeholder';

export default function BannerDetailPage() {
  const { t } = useTranslation();
  return <PagePlaceholder icon={<GiftOutline />} hint={t('pages.bannerHint')} />;
}
