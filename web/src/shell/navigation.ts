import { useLocation, useNavigate, useSearchParams } from 'react-router';
import type { MessageKey } from '../i18n';
import { sectionIn, type Section } from './sections';

export { sections, type Section } from './sections';

export const sectionLabels: Record<Section, MessageKey> = {
  overview: 'nav.overview',
  'api-tools': 'nav.apiTools',
  sheets: 'nav.sheets',
  manychat: 'nav.manychat',
  'background-work': 'nav.backgroundWork',
  'audit-log': 'nav.auditLog',
  config: 'nav.config',
  docs: 'nav.docs',
};

export const integrationLinks: { path: string; label: MessageKey }[] = [
  { path: '/ai-admin', label: 'nav.aiAdmin' },
  { path: '/woocommerce', label: 'nav.woocommerce' },
  { path: '/scraper-admin', label: 'nav.scraper' },
  { path: '/qpay', label: 'nav.qpay' },
  { path: '/streaming-keys', label: 'nav.streamingKeys' },
];

/** Document 1, section 9: from another route the dashboard opens first, the section 50 ms later. */
const SECTION_SWITCH_DELAY_MS = 50;

/** The dashboard section lives in `?section=` so a reload or a shared link keeps it. */
export function useSection(): [Section | null, (section: Section) => void] {
  const location = useLocation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const onDashboard = location.pathname === '/';
  const current = onDashboard ? sectionIn(params) : null;

  const select = (section: Section) => {
    const target = section === 'overview' ? '/' : `/?section=${section}`;
    if (onDashboard) {
      navigate(target);
      return;
    }
    navigate('/');
    setTimeout(() => navigate(target, { replace: true }), SECTION_SWITCH_DELAY_MS);
  };
  return [current, select];
}
