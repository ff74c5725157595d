import { Badge, Card, Flex, Heading, SimpleGrid, Spinner, Stack, Text } from '@chakra-ui/react';
import { PageHeader } from '../components/PageHeader';
import { t } from '../i18n';
import { errorText } from '../lib/api';
import { useConfigStatus } from '../lib/queries';
import type { ConfigStatusItem } from '../lib/types';

/** Configuration status by category, marking which integrations run against a simulator. */
export default function Config() {
  const { data, isPending, isError, error } = useConfigStatus();
  const groups = groupByCategory(data?.data ?? []);
  return (
    <>
      <PageHeader title={t('config.title')} subtitle={t('config.subtitle')} />
      {isPending && (
        <Flex gap="3" align="center"><Spinner size="sm" /><Text>{t('config.loading')}</Text></Flex>
      )}
      {isError && <Text color="fg.error">{t('config.error')}: {errorText(error, '')}</Text>}
      {data && groups.length === 0 && <Text color="fg.muted">{t('config.empty')}</Text>}
      <SimpleGrid columns={{ base: 1, lg: 2 }} gap="4" data-testid="config-groups">
        {groups.map(([category, items]) => (
          <Card.Root key={category} size="sm">
            <Card.Header><Heading size="md">{category}</Heading></Card.Header>
            <Card.Body>
              <Stack gap="3">
                {items.map((item) => (
                  <Flex key={item.name} justify="space-between" align="center" gap="3" wrap="wrap">
                    <Text>{item.name}</Text>
                    <Flex gap="2">
                      {item.simulated && (
                        <Badge colorPalette="purple" title={t('config.simulatedHint')}>{t('config.simulated')}</Badge>
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
