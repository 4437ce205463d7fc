import { HistogramOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { PagePlaceholder } from '../../../components/page-placeholder';

export default function BannerRankingPage() {
  const { t } = useTranslation();
  return <PagePlaceholder icon={<HistogramOutline />} hint={t('pages.rankingHint')} />;
}
