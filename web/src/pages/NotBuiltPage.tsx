import { NotBuilt } from '../components/NotBuilt';
import { PageHeader } from '../components/PageHeader';
import { useTexts, type MessageKey } from '../i18n';

/** An admin page from the route table that a later release builds. */
export default function NotBuiltPage({ title }: { title: MessageKey }) {
  const { t } = useTexts();
  return (
    <>
      <PageHeader title={t(title)} />
      <NotBuilt name={t(title)} />
    </>
  );
}
