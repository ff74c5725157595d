import { Badge, Card, Flex, Heading, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { useTexts } from '../i18n';
import { Tooltip } from './Tooltip';

/** What the cards show of a config-status item (the contract's configItemSchema, as a reply reads). */
export interface ConfigStatusLine {
  name: string;
  configured: boolean;
  simulated?: boolean;
  /** Why its service could not be asked. */
  error?: string;
}

export interface ConfigGroup {
  key: string;
  title: string;
  items: ConfigStatusLine[];
}

/**
 * Config-status items (GET /api/admin/config-status) in a card per group: each item's name, whether
 * it is configured, whether a local simulator stands in, and why its service could not be asked.
 * The dashboard's config section groups them by category, /configuration by service; whoever shows
 * it fetches the 'config' texts.
 */
export function ConfigStatusGroups({ groups, testId, headingLevel = 'h2' }: { groups: ConfigGroup[]; testId?: string; headingLevel?: 'h2' | 'h3' }) {
  const { t } = useTexts();
  return (
    <SimpleGrid columns={{ base: 1, lg: 2 }} gap="4" data-testid={testId}>
      {groups.map((group) => (
        <Card.Root key={group.key} size="sm" minW="0" data-testid="config-group" data-group={group.key}>
          <Card.Header><Heading as={headingLevel} size="md">{group.title}</Heading></Card.Header>
          <Card.Body>
            <Stack gap="3">
              {group.items.map((item) => (
                <Stack key={item.name} gap="0.5" data-testid="config-item" data-configured={item.configured}>
                  <Flex justify="space-between" align="center" gap="3" wrap="wrap">
                    <Text minW="0" overflowWrap="anywhere">{item.name}</Text>
                    {/* Right-aligned, also when a long name pushes them onto a line of their own. */}
                    <Flex gap="2" ms="auto">
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
                  {item.error && <Text fontSize="sm" color="fg.error" overflowWrap="anywhere" data-testid="config-item-error">{item.error}</Text>}
                </Stack>
              ))}
            </Stack>
          </Card.Body>
        </Card.Root>
      ))}
    </SimpleGrid>
  );
}

/** Items grouped by a property, the groups in the order their first item comes. */
export function groupItems<Item>(items: readonly Item[], keyOf: (item: Item) => string): [string, Item[]][] {
  const groups = new Map<string, Item[]>();
  for (const item of items) groups.set(keyOf(item), [...(groups.get(keyOf(item)) ?? []), item]);
  return [...groups];
}
