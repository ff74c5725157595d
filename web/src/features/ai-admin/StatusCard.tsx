import { Badge, Box, SimpleGrid, Stat, Text } from '@chakra-ui/react';
import { useTexts } from '../../i18n';
import { useAiStatus } from './queries';
import { AdminCard, ListState } from './shared';

/** Document 2 §2.1 Status: whether an enabled provider has its key (openai_configured) and how many prompts there are. */
export function StatusCard() {
  const { t, format } = useTexts();
  const status = useAiStatus();
  const data = status.data;
  return (
    <AdminCard id="ai-status">
      <ListState query={status} failed={t('aiAdmin.status.fetchFailed')} empty="" count={data ? 1 : 0}>
        {data && (
          <SimpleGrid columns={{ base: 1, sm: 2 }} gap="4">
            <Box borderWidth="1px" borderRadius="md" p="3">
              <Stat.Root>
                <Stat.Label>{t('aiAdmin.status.ai')}</Stat.Label>
                <Stat.ValueText>
                  <Badge size="lg" colorPalette={data.openai_configured ? 'green' : 'orange'} data-testid="ai-configured">
                    {data.openai_configured ? t('aiAdmin.status.configured') : t('aiAdmin.status.notConfigured')}
                  </Badge>
                </Stat.ValueText>
                <Stat.HelpText>
                  <Text as="span" fontSize="sm">{data.openai_configured ? t('aiAdmin.status.configuredHelp') : t('aiAdmin.status.notConfiguredHelp')}</Text>
                </Stat.HelpText>
              </Stat.Root>
            </Box>
            <Box borderWidth="1px" borderRadius="md" p="3">
              <Stat.Root>
                <Stat.Label>{t('aiAdmin.status.prompts')}</Stat.Label>
                <Stat.ValueText data-testid="prompts-count">{format.number(data.prompts_count)}</Stat.ValueText>
              </Stat.Root>
            </Box>
          </SimpleGrid>
        )}
      </ListState>
    </AdminCard>
  );
}
