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
function page<M, K extends keyof M>(load: () => Promise<M>, name: K) {
  return { lazy: async () => ({ Component: (await load())[name] as ComponentType }) };
}

export const router = createBrowserRouter(
  [
    {
      HydrateFallback: () => <Loading label="Loading" />,
      children: [
        { path: '/sign-in', ...page(() => import('./pages/SignIn'), 'SignInPage') },
        // The one-time links of docs/auth.md: open without a session.
        { path: '/invitations/:token', ...page(() => import('./pages/Invitation'), 'InvitationPage') },
        { path: '/password-reset', ...page(() => import('./pages/PasswordReset'), 'ForgotPasswordPage') },
        { path: '/password-reset/:token', ...page(() => import('./pages/PasswordReset'), 'PasswordResetPage') },
        // Operators have no session (docs/decisions/0004-operators.md): fulfilment works with their token, outside the shell.
        { path: '/shop/fulfilment', ...page(() => import('./pages/shop/Fulfilment'), 'FulfilmentPage') },
        {
          element: <Shell />,
          children: [
            { index: true, element: <Navigate to="/inventory" replace /> },
            { path: '/inventory', ...page(() => import('./pages/Inventory'), 'InventoryPage') },
            { path: '/inventory/items/new', ...page(() => import('./pages/NewItem'), 'NewItemPage') },
            { path: '/inventory/items/:id', ...page(() => import('./pages/Item'), 'ItemPage') },
            { path: '/locations', ...page(() => import('./pages/Locations'), 'LocationsPage') },
            { path: '/lab-migration', ...page(() => import('./pages/LabMigration'), 'LabMigrationPage') },
            { path: '/order-requests', ...page(() => import('./pages/OrderRequests'), 'OrderRequestsPage') },
            { path: '/order-requests/awaiting-approval', ...page(() => import('./pages/ApprovalQueue'), 'ApprovalQueuePage') },
            { path: '/order-requests/new', ...page(() => import('./pages/NewOrderRequest'), 'NewOrderRequestPage') },
            { path: '/order-requests/:id', ...page(() => import('./pages/OrderRequest'), 'OrderRequestPage') },
            { path: '/shop', ...page(() => import('./pages/shop/Catalogue'), 'CataloguePage') },
            { path: '/shop/products/:id', ...page(() => import('./pages/shop/Product'), 'ProductPage') },
            { path: '/shop/checkout', ...page(() => import('./pages/shop/Checkout'), 'CheckoutPage') },
            { path: '/shop/orders', ...page(() => import('./pages/shop/Orders'), 'ShopOrdersPage') },
            { path: '/shop/orders/:id', ...page(() => import('./pages/shop/Order'), 'ShopOrderPage') },
            { path: '/labs', ...page(() => import('./pages/MyLabs'), 'MyLabsPage') },
            { path: '/labs/:id/settings', ...page(() => import('./pages/LabSettings'), 'LabSettingsPage') },
            { path: '/settings', ...page(() => import('./pages/Settings'), 'SettingsPage') },
            { path: '/webhooks', ...page(() => import('./pages/Webhooks'), 'WebhooksPage') },
            { path: '/webhooks/:id', ...page(() => import('./pages/Webhook'), 'WebhookPage') },
            // The organization's administration: org admins only (web/src/pages/admin/AdminOnly.tsx).
            { path: '/admin/members', ...page(() => import('./pages/admin/Members'), 'MembersPage') },
            { path: '/admin/labs', ...page(() => import('./pages/admin/Labs'), 'LabsPage') },
            { path: '/admin/sso', ...page(() => import('./pages/admin/Sso'), 'SsoPage') },
            { path: '/labs/:id/import', ...page(() => import('./pages/InventoryImport'), 'InventoryImportPage') },
            { path: '/put-away', ...page(() => import('./pages/PutAway'), 'PutAwayPage') },
            { path: '/types', ...page(() => import('./pages/Types'), 'TypesPage') },
            { path: '*', element: <NotFoundPage /> },
          ],
        },
      ],
    },
  ],
  { basename: '/app' },
);
