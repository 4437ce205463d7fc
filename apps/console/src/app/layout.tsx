import { useQueryClient } from '@tanstack/react-query';
import { Button, Layout, Menu, Spin, Typography } from 'antd';
import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { AlertBadge } from '../features/alerts/components/alert-badge';
import { useCurrentUser } from '../features/auth/api/current-user';
import { useOperatorSession } from '../features/auth/api/operator-session';
import { mayOpen } from '../features/auth/rights';
import { endSession } from '../features/auth/session';
import { BrandMark } from './brand';
import { LanguageSwitch } from '../components/language-switch';

/** Menu entries in the order operators use them most; keys are the route paths. */
const MENU = [
  ['/', 'nav.dashboard'],
  ['/users', 'nav.users'],
  ['/ledger', 'nav.ledger'],
  ['/swap', 'nav.swap'],
  ['/networks', 'nav.networks'],
  ['/withdrawals', 'nav.withdrawals'],
  ['/content/banners', 'nav.banners'],
  ['/content/notices', 'nav.notices'],
  ['/content/help', 'nav.help'],
  ['/activities', 'nav.activities'],
  ['/audit-trail', 'nav.auditTrail'],
  ['/alerts', 'nav.alerts'],
  ['/operators', 'nav.operators'],
] as const;

function selectedKey(pathname: string): string {
  const match = MENU.filter(([key]) => key !== '/' && pathname.startsWith(key)).map(([key]) => key);
  return match[0] ?? '/';
}

export function ConsoleLayout() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const me = useCurrentUser();
  const roles = useOperatorSession().data?.roles ?? [];

  const signOut = async () => {
    await endSession();
    queryClient.clear();
    navigate('/login', { replace: true });
  };

  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Layout.Sider width={208} breakpoint="lg" collapsedWidth={0}>
        <BrandMark name={t('shell.brand')} />
        <Menu
          theme="dark"
          mode="inline"
          selectedKeys={[selectedKey(location.pathname)]}
          onClick={({ key }) => navigate(key)}
          items={MENU.filter(([key]) => mayOpen(key, roles)).map(([key, label]) => ({ key, label: t(label) }))}
        />
      </Layout.Sider>
      <Layout>
        <Layout.Header className="console-header">
          <AlertBadge />
          <Typography.Text type="secondary">{me.data?.email}</Typography.Text>
          <LanguageSwitch />
          <Button onClick={signOut}>{t('shell.signOut')}</Button>
        </Layout.Header>
        <Layout.Content className="console-content">
          <Suspense fallback={<Spin />}>
            <Outlet />
          </Suspense>
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
