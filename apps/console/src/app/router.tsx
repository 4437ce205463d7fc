import { createBrowserRouter } from 'react-router';
import { ConsoleLayout } from './layout';
import { RequireOperator } from './require-operator';

/** Same base as vite.config.ts; every page is its own chunk, loaded when first opened. */
export const CONSOLE_BASENAME = '/console';

const page = (load: () => Promise<{ default: React.ComponentType }>) => async () => ({ Component: (await load()).default });

export const router = createBrowserRouter(
  [
    { path: '/login', lazy: page(() => import('../features/auth/pages/sign-in')) },
    {
      element: <RequireOperator />,
      children: [
        {
          element: <ConsoleLayout />,
          children: [
            { index: true, lazy: page(() => import('../features/dashboard/pages/dashboard')) },
            { path: 'swap', lazy: page(() => import('../features/swap/pages/swap')) },
            { path: 'networks', lazy: page(() => import('../features/networks/pages/networks')) },
            { path: 'users', lazy: page(() => import('../features/users/pages/users')) },
            { path: 'users/:uid', lazy: page(() => import('../features/users/pages/user-detail')) },
            { path: 'ledger', lazy: page(() => import('../features/ledger/pages/ledger')) },
            { path: 'content/banners', lazy: page(() => import('../features/content/pages/banners')) },
            { path: 'content/notices', lazy: page(() => import('../features/content/pages/notices')) },
            { path: 'content/help', lazy: page(() => import('../features/content/pages/help')) },
            { path: 'activities', lazy: page(() => import('../features/activities/pages/activities')) },
            { path: 'audit-trail', lazy: page(() => import('../features/audit-trail/pages/audit-trail')) },
            { path: 'withdrawals', lazy: page(() => import('../features/withdrawals/pages/withdrawals')) },
            { path: 'alerts', lazy: page(() => import('../features/alerts/pages/alerts')) },
            { path: 'operators', lazy: page(() => import('../features/operators/pages/operators')) },
          ],
        },
      ],
    },
  ],
  { basename: CONSOLE_BASENAME },
);
