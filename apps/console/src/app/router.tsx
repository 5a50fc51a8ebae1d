import type { ComponentType } from 'react';
import { createHashRouter } from 'react-router';
import { ChangePasswordPage } from '@/features/auth/change-password-page';
import { LoginPage } from '@/features/auth/login-page';
import { PasskeysPage } from '@/features/auth/passkeys-page';
import type { QueueKind } from '@/features/queues/queue-api';
import { PageLoading } from '@/shared/page-loading';
import { AdminOnly, ConsoleLayout, NotFound } from './layout';
import { RouteError } from './route-error';

/** A page loaded with its route, so that the sign-in screen does not wait for every table and form. */
const lazyPage = (load: () => Promise<ComponentType>) => ({
  lazy: async () => ({ Component: await load() }),
});

const queue = (kind: QueueKind) => ({
  path: `queues/${kind}`,
  ...lazyPage(async () => {
    const { QueuePage } = await import('@/features/queues/queue-page');
    return function Queue() {
      return <QueuePage kind={kind} />;
    };
  }),
});

/** Hash routes, so that the static files at /console/ need no server-side fallback. */
export const router = createHashRouter([
  { path: '/login', element: <LoginPage />, errorElement: <RouteError /> },
  { path: '/password', element: <ChangePasswordPage />, errorElement: <RouteError /> },
  { path: '/passkeys', element: <PasskeysPage />, errorElement: <RouteError /> },
  {
    path: '/',
    element: <ConsoleLayout />,
    errorElement: <RouteError />,
    hydrateFallbackElement: <PageLoading />,
    children: [
      {
        // Inside the layout, so that a page that fails keeps the menu.
        errorElement: <RouteError />,
        children: [
          {
            index: true,
            ...lazyPage(() => import('@/features/queues/dashboard-page').then((m) => m.DashboardPage)),
          },
          queue('identity'),
          queue('bank-accounts'),
          queue('deposits'),
          queue('withdrawals'),
          {
            path: 'reconciliation',
            ...lazyPage(() =>
              import('@/features/reconciliation/reconciliation-page').then((m) => m.ReconciliationPage),
            ),
          },
          {
            path: 'loans',
            ...lazyPage(() => import('@/features/loans/loans-page').then((m) => m.LoansPage)),
          },
          {
            path: 'offerings',
            ...lazyPage(() => import('@/features/offerings/offerings-page').then((m) => m.OfferingsPage)),
          },
          {
            path: 'users',
            ...lazyPage(() => import('@/features/users/users-page').then((m) => m.UsersPage)),
          },
          {
            path: 'users/:id',
            ...lazyPage(() => import('@/features/users/user-detail-page').then((m) => m.UserDetailPage)),
          },
          {
            path: 'settings',
            ...lazyPage(() => import('@/features/settings/settings-page').then((m) => m.SettingsPage)),
          },
          {
            path: 'invitation-codes',
            ...lazyPage(() =>
              import('@/features/invitations/invitation-codes-page').then((m) => m.InvitationCodesPage),
            ),
          },
          {
            element: <AdminOnly />,
            children: [
              {
                path: 'operators',
                ...lazyPage(() => import('@/features/operators/operators-page').then((m) => m.OperatorsPage)),
              },
            ],
          },
          {
            path: 'news',
            ...lazyPage(() => import('@/features/news/news-page').then((m) => m.NewsPage)),
          },
          {
            path: 'banners',
            ...lazyPage(() => import('@/features/banners/banners-page').then((m) => m.BannersPage)),
          },
          {
            path: 'products',
            ...lazyPage(() => import('@/features/products/products-page').then((m) => m.ProductsPage)),
          },
          {
            path: 'dividends',
            ...lazyPage(() => import('@/features/dividends/dividends-page').then((m) => m.DividendsPage)),
          },
          {
            path: 'support',
            ...lazyPage(() => import('@/features/support/support-page').then((m) => m.SupportPage)),
          },
          {
            path: 'audit',
            ...lazyPage(() => import('@/features/audit/audit-page').then((m) => m.AuditPage)),
          },
          { path: '*', element: <NotFound /> },
        ],
      },
    ],
  },
]);
