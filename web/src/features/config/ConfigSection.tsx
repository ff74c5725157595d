import { Badge, Card, Flex, Heading, SimpleGrid, Spinner, Stack, Text } from '@chakra-ui/react';
import { ErrorAlert } from '../../components/ErrorAlert';
import { PageHeader } from '../../components/PageHeader';
import { Tooltip } from '../../components/Tooltip';
import { useTexts } from '../../i18n';
import { errorText } from '../../lib/api';
import type { ConfigStatusItem } from './api';
import { useConfigStatus } from './queries';

/** Configuration status by category, marking which integrations run against a simulator. */
export default function ConfigSection() {
  const { t } = useTexts();
  const { data, isPending, isError, error } = useConfigStatus();
  const groups = groupByCategory(data?.data ?? []);
  return (
    <>
      <PageHeader title={t('config.title')} subtitle={t('config.subtitle')} />
      {isPending && (
        <Flex gap="3" align="center" role="status"><Spinner size="sm" /><Text>{t('config.loading')}</Text></Flex>
      )}
      {isError && <ErrorAlert testId="config-error" title={t('config.error')} description={errorText(error, '') || undefined} />}
      {data && groups.length === 0 && <Text color="fg.muted">{t('config.empty')}</Text>}
      <SimpleGrid columns={{ base: 1, lg: 2 }} gap="4" data-testid="config-groups">
        {groups.map(([category, items]) => (
          <Card.Root key={category} size="sm">
            <Card.Header><Heading as="h2" size="md">{category}</Heading></Card.Header>
            <Card.Body>
              <Stack gap="3">
                {items.map((item) => (
                  <Flex key={item.name} justify="space-between" align="center" gap="3" wrap="wrap">
                    <Text>{item.name}</Text>
                    <Flex gap="2">
                      {item.simulated && (
                        <Tooltip content={t('config.simulatedHint')}>
                          <Badge colorPalette="purple" tabIndex={0} data-testid="simulated-badge">{t('config.simulated')}</Badge>
                        </Tooltip>
                      )}
                      <Badge colorPalette={item.configured ? 'green' : 'gray'}>
                        {item.configured ? t('config.configured') : t('config.notConfigured')}
                      </Badge>
                    </Flex>
                  </Flex>
                ))}
              </Stack>
            </Card.Body>
          </Card.Root>
        ))}
      </SimpleGrid>
    </>
  );
}

function groupByCategory(items: ConfigStatusItem[]): [string, ConfigStatusItem[]][] {
  const groups = new Map<string, ConfigStatusItem[]>();
  for (const item of items) groups.set(item.category, [...(groups.get(item.category) ?? []), item]);
  return [...groups];
}
