import type { ComponentType } from 'react';
import { createBrowserRouter } from 'react-router';
import { Loading } from './components/Fields';
import { Shell } from './components/Shell';
import { NotFoundPage } from './pages/NotFound';
import { TitledOutlet } from './title';

// Every app_url the API returns points here (/app/inventory/items/{id}, …); a page that needs a session sends the
// person to sign in and back.
//
// Each page is its own chunk, loaded when first opened (`lazy`): the first load carries the shell, Mantine and the
// client only, which keeps the initial JavaScript under the 250 kB the build enforces (scripts/web-size.mjs) however
// many pages the application grows.
//
// `title` names the page in the browser's tab ("Inventory · Labstock", web/src/title.tsx).
function page<M, K extends keyof M>(load: () => Promise<M>, name: K, title?: string) {
  return { lazy: async () => ({ Component: (await load())[name] as ComponentType }), handle: { title } };
}

export const router = createBrowserRouter(
  [
    {
      element: <TitledOutlet />,
      HydrateFallback: () => <Loading label="Loading" />,
      children: [
        { path: '/sign-in', ...page(() => import('./pages/SignIn'), 'SignInPage', 'Sign in') },
        // The one-time links of docs/auth.md: open without a session.
        { path: '/invitations/:token', ...page(() => import('./pages/Invitation'), 'InvitationPage', 'Invitation') },
        { path: '/password-reset', ...page(() => import('./pages/PasswordReset'), 'ForgotPasswordPage', 'Forgot your password') },
        { path: '/password-reset/:token', ...page(() => import('./pages/PasswordReset'), 'PasswordResetPage', 'New password') },
        // Operators have no session (docs/decisions/0004-operators.md): fulfilment works with their token, outside the shell.
        { path: '/shop/fulfilment', ...page(() => import('./pages/shop/Fulfilment'), 'FulfilmentPage', 'Fulfilment') },
        {
          element: <Shell />,
          children: [
            { index: true, ...page(() => import('./pages/Home'), 'HomePage', 'Home') },
            { path: '/inventory', ...page(() => import('./pages/Inventory'), 'InventoryPage', 'Inventory') },
            { path: '/inventory/items/new', ...page(() => import('./pages/NewItem'), 'NewItemPage', 'New item') },
            { path: '/inventory/items/:id', ...page(() => import('./pages/Item'), 'ItemPage', 'Item') },
            { path: '/inventory/items/:id/instances/:instanceId', ...page(() => import('./pages/Instance'), 'InstancePage', 'Container') },
            { path: '/locations', ...page(() => import('./pages/Locations'), 'LocationsPage', 'Locations') },
            { path: '/locations/:id', ...page(() => import('./pages/Location'), 'LocationPage', 'Location') },
            { path: '/lab-migration', ...page(() => import('./pages/LabMigration'), 'LabMigrationPage', 'Lab migration') },
            { path: '/order-requests', ...page(() => import('./pages/OrderRequests'), 'OrderRequestsPage', 'Order requests') },
            {
              path: '/order-requests/awaiting-approval',
              ...page(() => import('./pages/ApprovalQueue'), 'ApprovalQueuePage', 'Awaiting my approval'),
            },
            { path: '/order-requests/new', ...page(() => import('./pages/NewOrderRequest'), 'NewOrderRequestPage', 'New order request') },
            { path: '/order-requests/:id', ...page(() => import('./pages/OrderRequest'), 'OrderRequestPage', 'Order request') },
            { path: '/shop', ...page(() => import('./pages/shop/Catalogue'), 'CataloguePage', 'Shop') },
            { path: '/shop/products/:id', ...page(() => import('./pages/shop/Product'), 'ProductPage', 'Product') },
            { path: '/shop/checkout', ...page(() => import('./pages/shop/Checkout'), 'CheckoutPage', 'Checkout') },
            { path: '/shop/orders', ...page(() => import('./pages/shop/Orders'), 'ShopOrdersPage', 'Shop orders') },
            { path: '/shop/orders/:id', ...page(() => import('./pages/shop/Order'), 'ShopOrderPage', 'Shop order') },
            { path: '/labs', ...page(() => import('./pages/MyLabs'), 'MyLabsPage', 'Your labs') },
            { path: '/labs/:id/settings', ...page(() => import('./pages/LabSettings'), 'LabSettingsPage', 'Lab settings') },
            { path: '/settings', ...page(() => import('./pages/Settings'), 'SettingsPage', 'Settings') },
            { path: '/webhooks', ...page(() => import('./pages/Webhooks'), 'WebhooksPage', 'Webhooks') },
            { path: '/webhooks/:id', ...page(() => import('./pages/Webhook'), 'WebhookPage', 'Webhook') },
            // The organization's administration: org admins only (web/src/pages/admin/AdminOnly.tsx).
            { path: '/admin/members', ...page(() => import('./pages/admin/Members'), 'MembersPage', 'Members') },
            { path: '/admin/labs', ...page(() => import('./pages/admin/Labs'), 'LabsPage', 'Labs') },
            { path: '/admin/sso', ...page(() => import('./pages/admin/Sso'), 'SsoPage', 'Single sign-on') },
            { path: '/labs/:id/import', ...page(() => import('./pages/InventoryImport'), 'InventoryImportPage', 'Import inventory') },
            { path: '/put-away', ...page(() => import('./pages/PutAway'), 'PutAwayPage', 'Put away') },
            {
              path: '/controlled',
              ...page(() => import('./components/controlled/ControlledPage'), 'ControlledPage', 'Controlled substances'),
            },
            { path: '/stocktakes/:id', ...page(() => import('./pages/Stocktake'), 'StocktakePage', 'Count') },
            { path: '/types', ...page(() => import('./pages/Types'), 'TypesPage', 'Types') },
            // The hazard inventory for the safety office (docs/hazard-reports.md).
            { path: '/safety', ...page(() => import('./pages/Safety'), 'SafetyPage', 'Safety') },
            // Scanning labels with the camera or a keyboard-wedge scanner (docs/scanning.md).
            { path: '/scan', ...page(() => import('./scan/ScanPage'), 'ScanPage', 'Scan') },
            // What a label's QR code opens (docs/labels.md): replaced at once by the thing's page.
            { path: '/c/:code', ...page(() => import('./pages/Code'), 'CodePage', 'Label') },
            { path: '*', element: <NotFoundPage />, handle: { title: 'Not found' } },
          ],
        },
      ],
    },
  ],
  { basename: '/app' },
);
