import { useTranslation } from 'react-i18next';
import { DepositIcon, SendIcon, SwapIcon, WithdrawIcon } from '../../../components/icons';
import { AppLink } from '../../../lib/nav';

/** Charge, withdraw, transfer, swap. Plain links: this renders in the first paint of /. */
export function QuickActions() {
  const { t } = useTranslation();
  const actions = [
    { to: '/charge', label: t('routes.charge'), icon: <DepositIcon />, id: 'charge' },
    { to: '/withdraw', label: t('routes.withdraw'), icon: <WithdrawIcon />, id: 'withdraw' },
    { to: '/transfer', label: t('routes.transfer'), icon: <SendIcon />, id: 'transfer' },
    { to: '/swap', label: t('routes.swap'), icon: <SwapIcon />, id: 'swap' },
  ];
  return (
    <section className="card">
      <h2 className="m-0 mb-3 text-base font-semibold">{t('home.quickActions')}</h2>
      <nav className="grid grid-cols-4 gap-2">
        {actions.map((action) => (
          <AppLink key={action.to} to={action.to} className="home-action" data-testid={`home-action-${action.id}`}>
            <span className="home-action-icon">{action.icon}</span>
            <span>{action.label}</span>
          </AppLink>
        ))}
      </nav>
    </section>
  );
}
