import { SimpleGrid, Stack } from '@chakra-ui/react';
import { PageHeader } from '../../components/PageHeader';
import { useTexts } from '../../i18n';
import { Catalogue } from './Catalogue';
import { useCatalogue } from './queries';
import { RecentActivity } from './RecentActivity';
import { RequestTester } from './RequestTester';

/**
 * The dashboard's api-tools section (document 1): the catalogue of the endpoints the admin may
 * call, drawn from the gateway's OpenAPI document, each with a Test; a request tester; and the
 * latest requests of the request log. Every call goes to this origin with the admin's session.
 */
export default function ApiToolsSection() {
  const { t } = useTexts();
  const catalogue = useCatalogue();
  const counts = catalogue.data
    ? t('apiTools.counts', {
        endpoints: t('apiTools.endpointCount', { count: catalogue.data.endpoints.length }),
        categories: t('apiTools.categoryCount', { count: catalogue.data.categories.length }),
      })
    : undefined;
  return (
    <>
      <PageHeader title={t('apiTools.title')} subtitle={counts} />
      <Stack gap="6">
        <Catalogue query={catalogue} />
        {/* Side by side only where the request log's five columns still fit in half the width. */}
        <SimpleGrid columns={{ base: 1, '2xl': 2 }} gap="6" alignItems="start">
          <RequestTester />
          <RecentActivity />
        </SimpleGrid>
      </Stack>
    </>
  );
}
