import OverviewSection from '../features/overview/OverviewSection';
import { lazyPage } from '../lib/lazy-page';
import { useSection, type Section } from '../shell/navigation';

// The overview is the section '/' opens with, so it comes with this chunk; the others load on demand, each with its texts.
const SheetsSection = lazyPage(() => import('../features/sheets/SheetsSection'), 'sheets');
const ManyChatSection = lazyPage(() => import('../features/manychat/ManyChatSection'), 'manychat');
const ConfigSection = lazyPage(() => import('../features/config/ConfigSection'), 'config');
const BackgroundWorkSection = lazyPage(() => import('../features/runs/BackgroundWorkSection'), 'runs');
const AuditLogSection = lazyPage(() => import('../features/audit-log/AuditLogSection'), 'auditLog');
const DocsSection = lazyPage(() => import('../features/docs/DocsSection'), 'docs');
const ApiToolsSection = lazyPage(() => import('../features/api-tools/ApiToolsSection'), 'apiTools');

/** '/' : the main sections switch here (document 1, section 2). */
export default function Dashboard() {
  const [section, select] = useSection();
  return <SectionView section={section ?? 'overview'} onOpen={select} />;
}

function SectionView({ section, onOpen }: { section: Section; onOpen: (section: Section) => void }) {
  switch (section) {
    case 'overview':
      return <OverviewSection onOpen={onOpen} />;
    case 'sheets':
      return <SheetsSection />;
    case 'manychat':
      return <ManyChatSection />;
    case 'background-work':
      return <BackgroundWorkSection />;
    case 'audit-log':
      return <AuditLogSection />;
    case 'config':
      return <ConfigSection />;
    case 'docs':
      return <DocsSection />;
    case 'api-tools':
      return <ApiToolsSection />;
  }
}
