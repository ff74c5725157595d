import { lazy } from 'react';
import { NotBuilt } from '../components/NotBuilt';
import { t } from '../i18n';
import Overview from '../sections/Overview';
import { sectionLabels, useSection, type Section } from '../shell/navigation';

// The overview is the section '/' opens with, so it comes with this chunk; the others load on demand.
const Sheets = lazy(() => import('../sections/Sheets'));
const Config = lazy(() => import('../sections/Config'));
const Docs = lazy(() => import('../sections/Docs'));

/** '/' : the main sections switch here (document 1, section 2). */
export default function Dashboard() {
  const [section, select] = useSection();
  return <SectionView section={section ?? 'overview'} onOpen={select} />;
}

function SectionView({ section, onOpen }: { section: Section; onOpen: (section: Section) => void }) {
  switch (section) {
    case 'overview':
      return <Overview onOpen={onOpen} />;
    case 'sheets':
      return <Sheets />;
    case 'config':
      return <Config />;
    case 'docs':
      return <Docs />;
    case 'api-tools':
    case 'manychat':
      return <NotBuilt name={t(sectionLabels[section])} />;
  }
}
