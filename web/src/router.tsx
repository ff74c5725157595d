import { Suspense } from 'react';
import { createBrowserRouter, Outlet } from 'react-router';
import { AdminGuard } from './features/auth/AdminGuard';
import { serviceCodes, servicePagePaths } from './features/customer/service';
import type { MessageKey } from './i18n';
import { lazyPage } from './lib/lazy-page';
import Dashboard from './pages/Dashboard';
import type { BuiltPart } from './pages/NotBuiltPage';
import { Shell } from './shell/Shell';

// Every page but the dashboard (the first screen, in the first load) in its own chunk, fetched with
// the parts of the catalogue its code uses beside the shell's, which are in before the first render.
const LoginPage = lazyPage(() => import('./features/auth/LoginPage'));
const NotBuiltPage = lazyPage(() => import('./pages/NotBuiltPage'));
const NotFound = lazyPage(() => import('./pages/NotFound'));
const WooCommercePage = lazyPage(() => import('./features/woocommerce/WooCommercePage'), 'woocommerce');
const QpayPage = lazyPage(() => import('./features/qpay/QpayPage'), 'qpay', 'payment');
const PaymentPage = lazyPage(() => import('./features/payment/PaymentPage'), 'payment');
const StreamingKeysPage = lazyPage(() => import('./features/streaming-keys/StreamingKeysPage'), 'streamingKeys', 'qpay');
const StreamingKeysAdminOnly = lazyPage(() => import('./features/streaming-keys/AdminOnly'), 'streamingKeys');
const ManyChatAdminPage = lazyPage(() => import('./features/manychat-admin/ManyChatAdminPage'), 'manychatAdmin', 'qpay');
const AiParserPage = lazyPage(() => import('./features/ai-parser/AiParserPage'), 'aiParser');
const AiAdminPage = lazyPage(() => import('./features/ai-admin/AiAdminPage'), 'aiAdmin');
const ScraperAdminPage = lazyPage(() => import('./features/scraper-admin/ScraperAdminPage'), 'scraperAdmin');
const ConfigurationPage = lazyPage(() => import('./features/configuration/ConfigurationPage'), 'configuration', 'config');
const CustomerLoginPage = lazyPage(() => import('./features/customer/CustomerLoginPage'), 'customer');
const ServicePage = lazyPage(() => import('./features/customer/ServicePage'), 'customer');

/** Admin pages of the route table that later releases build. */
const laterAdminPages: { path: string; title: MessageKey; built?: BuiltPart }[] = [
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
          // Document 2 §2.1: its Email-parser prompt card links to /ai-parser-config for the test.
          { path: 'ai-admin', element: <AiAdminPage /> },
          // Document 2 §2.3: the scraper, its products' publication to the shop, and the pricing settings.
          { path: 'scraper-admin', element: <ScraperAdminPage /> },
          // Issue 23: the settings hub (outside systems by service, webhook secrets, the data key's id).
          { path: 'configuration', element: <ConfigurationPage /> },
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
