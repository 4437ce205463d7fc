import { QuestionCircleOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { PagePlaceholder } from '../../../components/page-placeholder';

export default function HelpCenterPage() {
  const { t } = useTranslation();
  return <PagePlaceholder icon={<QuestionCircleOutline />} hint={t('pages.helpHint')} />;
}
