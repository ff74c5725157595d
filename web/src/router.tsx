import { lazy, Suspense } from 'react';
import { createBrowserRouter, Outlet } from 'react-router';
import { AdminGuard } from './features/auth/AdminGuard';
import { serviceCodes, servicePagePaths } from './features/customer/service';
import { Shell } from './shell/Shell';
import type { MessageKey } from './i18n';
import type { BuiltPart } from './pages/NotBuiltPage';

const LoginPage = lazy(() => import('./features/auth/LoginPage'));
const loadDashboard = () => import('./pages/Dashboard');
const Dashboard = lazy(loadDashboard);
// Most visits open '/': fetch its code while the session is still being checked, not after.
if (window.location.pathname === '/') void loadDashboard();
const NotBuiltPage = lazy(() => import('./pages/NotBuiltPage'));
const NotFound = lazy(() => import('./pages/NotFound'));
const WooCommercePage = lazy(() => import('./features/woocommerce/WooCommercePage'));
const QpayPage = lazy(() => import('./features/qpay/QpayPage'));
const PaymentPage = lazy(() => import('./features/payment/PaymentPage'));
const StreamingKeysPage = lazy(() => import('./features/streaming-keys/StreamingKeysPage'));
const StreamingKeysAdminOnly = lazy(() => import('./features/streaming-keys/AdminOnly'));
const ManyChatAdminPage = lazy(() => import('./features/manychat-admin/ManyChatAdminPage'));
const AiParserPage = lazy(() => import('./features/ai-parser/AiParserPage'));
const CustomerLoginPage = lazy(() => import('./features/customer/CustomerLoginPage'));
const ServicePage = lazy(() => import('./features/customer/ServicePage'));

/** Admin pages of the route table that later releases build. */
const laterAdminPages: { path: string; title: MessageKey; built?: BuiltPart }[] = [
  // Document 2 §2.1: the AI admin page holds the e-mail parser's prompt; until it is built, the way to the parser page.
  { path: 'ai-admin', title: 'nav.aiAdmin', built: { text: 'notBuilt.aiParser', path: '/ai-parser-config', label: 'nav.aiParser' } },
  { path: 'scraper-admin', title: 'nav.scraper' },
  { path: 'configuration', title: 'nav.config' },
  { path: 'analytics', title: 'nav.analytics' },
];

export const router = createBrowserRouter([
  {
    element: (
      <Suspense fallback={null}>
        <Outlet />
      </Suspense>
    ),
    children: [
      { path: '/login', element: <LoginPage /> },
      // Public: a customer pays here from a chat link, signed in to nothing.
      { path: '/payment/:invoiceId', element: <PaymentPage /> },
      // The customer portal (document 3 §2): its own e-mail + key session, outside the admin shell.
      { path: '/customer-login', element: <CustomerLoginPage /> },
      ...serviceCodes.map((service) => ({ path: servicePagePaths[service], element: <ServicePage service={service} /> })),
      {
        element: (
          <AdminGuard>
            <Shell />
          </AdminGuard>
        ),
        children: [
          { index: true, element: <Dashboard /> },
          { path: 'woocommerce', element: <WooCommercePage /> },
          { path: 'qpay', element: <QpayPage /> },
          { path: 'manychat-admin', element: <ManyChatAdminPage /> },
          { path: 'ai-parser-config', element: <AiParserPage /> },
          ...laterAdminPages.map(({ path, title, built }) => ({ path, element: <NotBuiltPage title={title} built={built} /> })),
        ],
      },
      {
        // Document 3 §6: a signed-in non-admin sees this page's own 'Admin Only', not Access Denied.
        element: (
          <AdminGuard denied={<StreamingKeysAdminOnly />}>
            <Shell />
          </AdminGuard>
        ),
        children: [{ path: 'streaming-keys', element: <StreamingKeysPage /> }],
      },
      { path: '*', element: <NotFound /> },
    ],
  },
]);
