import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DepositIcon, SendIcon, SwapIcon, WithdrawIcon } from '../../../components/icons';
import { isSignedIn } from '../../../lib/session';
import { useUserStore } from '../../../stores/user';

/**
 * Landing tab. Kept free of heavy components: it is the page Lighthouse and first-time
 * visitors load, and its chunk counts towards the initial bundle.
 */
export default function HomePage() {
  const { t } = useTranslation();
  const user = useUserStore((state) => state.user);
  const signedIn = isSignedIn();

  const actions = [
    { to: '/charge', label: t('routes.charge'), icon: <DepositIcon /> },
    { to: '/withdraw', label: t('routes.withdraw'), icon: <WithdrawIcon /> },
    { to: '/transfer', label: t('routes.transfer'), icon: <SendIcon /> },
    { to: '/swap', label: t('routes.swap'), icon: <SwapIcon /> },
  ];

  return (
    <div className="flex flex-col gap-4" data-testid="home">
      <section className="home-hero">
        <div className="flex items-center gap-2">
          <img src="/favicon.svg" alt="" width={28} height={28} className="home-logo" />
          <span className="text-lg font-semibold">{t('app.name')}</span>
        </div>
        <h1 className="home-hero-title">
          {signedIn && user ? t('home.greeting', { name: user.nickname || user.email }) : t('auth.tagline')}
        </h1>
        {signedIn ? null : (
          <>
            <p className="home-hero-hint">{t('home.guest')}</p>
            <div className="flex gap-3">
              <Link className="home-button home-button--solid" to="/login" data-testid="home-login">
                {t('home.signIn')}
              </Link>
              <Link className="home-button" to="/register" data-testid="home-register">
                {t('home.signUp')}
              </Link>
            </div>
          </>
        )}
      </section>

      <section className="card">
        <h2 className="m-0 mb-3 text-base font-semibold">{t('home.quickActions')}</h2>
        <nav className="grid grid-cols-4 gap-2">
          {actions.map((action) => (
            <Link key={action.to} to={action.to} className="home-action">
              <span className="home-action-icon">{action.icon}</span>
              <span>{action.label}</span>
            </Link>
          ))}
        </nav>
      </section>
    </div>
  );
}
