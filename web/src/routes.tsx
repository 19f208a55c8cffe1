import { createBrowserRouter, Navigate } from 'react-router';
import { Loading } from './components/Fields';
import { Shell } from './components/Shell';
import { NotFoundPage } from './pages/NotFound';

// Every app_url the API returns points here (/app/inventory/items/{id}, …); a page that needs a session sends the
// person to sign in and back.
//
// Each page is its own chunk, loaded when first opened (`lazy`): the first load carries the shell, Mantine and the
// client only, which keeps the initial JavaScript under the 250 kB the build enforces (scripts/web-size.mjs) however
// many pages the application grows.
export const router = createBrowserRouter(
  [
    {
      HydrateFallback: () => <Loading label="Loading" />,
      children: [
        { path: '/sign-in', lazy: () => import('./pages/SignIn').then((m) => ({ Component: m.SignInPage })) },
        // The one-time links of docs/auth.md: open without a session.
        { path: '/invitations/:token', lazy: () => import('./pages/Invitation').then((m) => ({ Component: m.InvitationPage })) },
        { path: '/password-reset', lazy: () => import('./pages/PasswordReset').then((m) => ({ Component: m.ForgotPasswordPage })) },
        {
          path: '/password-reset/:token',
          lazy: () => import('./pages/PasswordReset').then((m) => ({ Component: m.PasswordResetPage })),
        },
        {
          element: <Shell />,
          children: [
            { index: true, element: <Navigate to="/inventory" replace /> },
            { path: '/inventory', lazy: () => import('./pages/Inventory').then((m) => ({ Component: m.InventoryPage })) },
            { path: '/inventory/items/:id', lazy: () => import('./pages/Item').then((m) => ({ Component: m.ItemPage })) },
            {
              path: '/order-requests',
              lazy: () => import('./pages/OrderRequests').then((m) => ({ Component: m.OrderRequestsPage })),
            },
            {
              path: '/order-requests/new',
              lazy: () => import('./pages/NewOrderRequest').then((m) => ({ Component: m.NewOrderRequestPage })),
            },
            {
              path: '/order-requests/:id',
              lazy: () => import('./pages/OrderRequest').then((m) => ({ Component: m.OrderRequestPage })),
            },
            { path: '/settings', lazy: () => import('./pages/Settings').then((m) => ({ Component: m.SettingsPage })) },
            { path: '*', element: <NotFoundPage /> },
          ],
        },
      ],
    },
  ],
  { basename: '/app' },
);
