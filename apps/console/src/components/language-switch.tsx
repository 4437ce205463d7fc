import { Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { switchLanguage } from '../lib/i18n';
import { CONSOLE_LANGUAGES, type ConsoleLanguage } from '../lib/session';

const LABELS: Record<ConsoleLanguage, string> = { 'zh-CN': '简体中文', 'en-US': 'English' };

export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  return (
    <Select<ConsoleLanguage>
      aria-label={t('shell.language')}
      value={i18n.language as ConsoleLanguage}
      onChange={switchLanguage}
      options={CONSOLE_LANGUAGES.map((value) => ({ value, label: LABELS[value] }))}
      style={{ width: 120 }}
    />
  );
}
