import { createBrowserRouter, Navigate } from 'react-router';
import { Shell } from './components/Shell';
import { LabsPage } from './pages/admin/Labs';
import { MembersPage } from './pages/admin/Members';
import { SsoPage } from './pages/admin/Sso';
import { InventoryPage } from './pages/Inventory';
import { InvitationPage } from './pages/Invitation';
import { ItemPage } from './pages/Item';
import { NewOrderRequestPage } from './pages/NewOrderRequest';
import { NotFoundPage } from './pages/NotFound';
import { OrderRequestPage } from './pages/OrderRequest';
import { OrderRequestsPage } from './pages/OrderRequests';
import { ForgotPasswordPage, PasswordResetPage } from './pages/PasswordReset';
import { SettingsPage } from './pages/Settings';
import { SignInPage } from './pages/SignIn';

// Every app_url the API returns points here (/app/inventory/items/{id}, …); a page that needs a session sends the
// person to sign in and back.
export const router = createBrowserRouter(
  [
    { path: '/sign-in', element: <SignInPage /> },
    // The one-time links of docs/auth.md: open without a session.
    { path: '/invitations/:token', element: <InvitationPage /> },
    { path: '/password-reset', element: <ForgotPasswordPage /> },
    { path: '/password-reset/:token', element: <PasswordResetPage /> },
    {
      element: <Shell />,
      children: [
        { index: true, element: <Navigate to="/inventory" replace /> },
        { path: '/inventory', element: <InventoryPage /> },
        { path: '/inventory/items/:id', element: <ItemPage /> },
        { path: '/order-requests', element: <OrderRequestsPage /> },
        { path: '/order-requests/new', element: <NewOrderRequestPage /> },
        { path: '/order-requests/:id', element: <OrderRequestPage /> },
        { path: '/settings', element: <SettingsPage /> },
        // The organization's administration: org admins only (web/src/pages/admin/AdminOnly.tsx).
        { path: '/admin/members', element: <MembersPage /> },
        { path: '/admin/labs', element: <LabsPage /> },
        { path: '/admin/sso', element: <SsoPage /> },
        { path: '*', element: <NotFoundPage /> },
      ],
    },
  ],
  { basename: '/app' },
);
