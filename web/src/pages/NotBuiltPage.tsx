import { PageHeader } from '../components/PageHeader';
import { NotBuilt } from '../components/NotBuilt';
import { t, type MessageKey } from '../i18n';

/** An admin page from the route table that a later release builds. */
export default function NotBuiltPage({ title }: { title: MessageKey }) {
  return (
    <>
      <PageHeader title={t(title)} />
      <NotBuilt name={t(title)} />
    </>
  );
}
