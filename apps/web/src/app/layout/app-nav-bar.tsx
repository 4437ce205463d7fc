// antd's nav bar look, without its component: its left area is a role="button" div, so a
// real back button inside it is a nested control and neither is reachable by keyboard.
import 'antd-mobile/es/components/nav-bar/nav-bar.css';
import { LeftOutline } from 'antd-mobile-icons';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

interface AppNavBarProps {
  onBack: () => void;
  right?: ReactNode;
  children: ReactNode;
}

/** The top bar: a back button (Tab reaches it, Enter and Space press it), the title, actions. */
export function AppNavBar({ onBack, right, children }: AppNavBarProps) {
  const { t } = useTranslation();
  return (
    <header className="adm-nav-bar app-nav-bar">
      <div className="adm-nav-bar-left">
        <button type="button" className="adm-nav-bar-back app-nav-back" aria-label={t('nav.back')} onClick={onBack}>
          <LeftOutline aria-hidden />
        </button>
      </div>
      <div className="adm-nav-bar-title">{children}</div>
      <div className="adm-nav-bar-right">{right}</div>
    </header>
  );
}
