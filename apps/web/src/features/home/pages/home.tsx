import { Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { withProviders } from '../../../lib/lazy-retrying';
import { AppLink } from '../../../lib/nav';
import { lazyRetrying } from '../../../lib/lazy-retrying';
import { isSignedIn } from '../../../lib/session';
import { useAfterPaint } from '../../../lib/use-after-paint';
import { useUserStore } from '../../../stores/user';
import { QuickActions } from '../components/quick-actions';

// The wallet brings the HTTP client, TanStack Query and antd's list widgets (with the page
// providers). The guest's extras (banners, public rates) need none of them (plain fetches and
// markup, decision 032). Both load after the first paint so the landing chunk stays small (it
// counts towards the initial bundle).
const WalletHome = lazyRetrying(() => withProviders(() => import('../components/wallet-home')));
const GuestExtras = lazyRetrying(() => import('../components/guest-extras'));

/**
 * Landing tab. Signed out: a welcome with sign-in/sign-up and the public rates. Signed in:
 * the wallet (total value, balances, pull to refresh), see WalletHome.
 */
export default function HomePage() {
  const { t } = useTranslation();
  const user = useUserStore((state) => state.user);
  const signedIn = isSignedIn();
  const afterPaint = useAfterPaint();

  // Home is public, so the guard does not load the user. A signed-in visitor in a new tab
  // has none stored yet: load it here, through dynamic imports so that signed-out
  // visitors (and the first paint) never download the HTTP client or TanStack Query.
  useEffect(() => {
    if (!signedIn || user) return;
    void Promise.all([import('../../../lib/current-user'), import('../../../lib/query-client')])
      .then(([{ refreshCurrentUser }, { queryClient }]) => refreshCurrentUser(queryClient))
      .catch(() => undefined);
  }, [signedIn, user]);

  const greeting = user ? t('home.greeting', { name: user.nickname || user.email }) : t('auth.tagline');
  const brand = (
    <div className="flex items-center gap-2">
      <img src="/favicon.svg" alt="" width={28} height={28} className="home-logo" />
      <span className="text-lg font-semibold">{t('app.name')}</span>
    </div>
  );

  if (signedIn) {
    return (
      <Suspense
        fallback={
          <div className="flex flex-col gap-4" data-testid="home">
            <section className="home-hero">
              {brand}
              <h1 className="home-hero-title">{greeting}</h1>
              <p className="home-hero-hint">{t('home.totalAssets')}</p>
            </section>
            <QuickActions />
          </div>
        }
      >
        <WalletHome brand={brand} greeting={greeting} actions={<QuickActions />} />
      </Suspense>
    );
  }

  return (
    <div className="flex flex-col gap-4" data-testid="home">
      <section className="home-hero">
        {brand}
        <h1 className="home-hero-title">{t('auth.tagline')}</h1>
        <p className="home-hero-hint">{t('home.guest')}</p>
        <div className="flex gap-3">
          <AppLink className="home-button home-button--solid" to="/login" data-testid="home-login">
            {t('home.signIn')}
          </AppLink>
          <AppLink className="home-button" to="/register" data-testid="home-register">
            {t('home.signUp')}
          </AppLink>
        </div>
      </section>
      <QuickActions />
      <Suspense fallback={null}>{afterPaint ? <GuestExtras /> : null}</Suspense>
    </div>
  );
}
