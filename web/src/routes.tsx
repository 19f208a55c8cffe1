import type { ComponentType } from 'react';
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
function page<M>(load: () => Promise<M>, pick: (module: M) => ComponentType) {
  return { lazy: async () => ({ Component: pick(await load()) }) };
}

export const router = createBrowserRouter(
  [
    {
      HydrateFallback: () => <Loading label="Loading" />,
      children: [
        {
          path: '/sign-in',
          ...page(
            () => import('./pages/SignIn'),
            (m) => m.SignInPage,
          ),
        },
        // The one-time links of docs/auth.md: open without a session.
        {
          path: '/invitations/:token',
          ...page(
            () => import('./pages/Invitation'),
            (m) => m.InvitationPage,
          ),
        },
        {
          path: '/password-reset',
          ...page(
            () => import('./pages/PasswordReset'),
            (m) => m.ForgotPasswordPage,
          ),
        },
        {
          path: '/password-reset/:token',
          ...page(
            () => import('./pages/PasswordReset'),
            (m) => m.PasswordResetPage,
          ),
        },
        // Operators have no session (docs/decisions/0004-operators.md): fulfilment works with their token, outside the shell.
        {
          path: '/shop/fulfilment',
          ...page(
            () => import('./pages/shop/Fulfilment'),
            (m) => m.FulfilmentPage,
          ),
        },
        {
          element: <Shell />,
          children: [
            { index: true, element: <Navigate to="/inventory" replace /> },
            {
              path: '/inventory',
              ...page(
                () => import('./pages/Inventory'),
                (m) => m.InventoryPage,
              ),
            },
            {
              path: '/inventory/items/:id',
              ...page(
                () => import('./pages/Item'),
                (m) => m.ItemPage,
              ),
            },
            {
              path: '/order-requests',
              ...page(
                () => import('./pages/OrderRequests'),
                (m) => m.OrderRequestsPage,
              ),
            },
            {
              path: '/order-requests/new',
              ...page(
                () => import('./pages/NewOrderRequest'),
                (m) => m.NewOrderRequestPage,
              ),
            },
            {
              path: '/order-requests/:id',
              ...page(
                () => import('./pages/OrderRequest'),
                (m) => m.OrderRequestPage,
              ),
            },
            {
              path: '/shop',
              ...page(
                () => import('./pages/shop/Catalogue'),
                (m) => m.CataloguePage,
              ),
            },
            {
              path: '/shop/products/:id',
              ...page(
                () => import('./pages/shop/Product'),
                (m) => m.ProductPage,
              ),
            },
            {
              path: '/shop/checkout',
              ...page(
                () => import('./pages/shop/Checkout'),
                (m) => m.CheckoutPage,
              ),
            },
            {
              path: '/shop/orders',
              ...page(
                () => import('./pages/shop/Orders'),
                (m) => m.ShopOrdersPage,
              ),
            },
            {
              path: '/shop/orders/:id',
              ...page(
                () => import('./pages/shop/Order'),
                (m) => m.ShopOrderPage,
              ),
            },
            {
              path: '/settings',
              ...page(
                () => import('./pages/Settings'),
                (m) => m.SettingsPage,
              ),
            },
            { path: '*', element: <NotFoundPage /> },
          ],
        },
      ],
    },
  ],
  { basename: '/app' },
);
