import { Code, Flex, Stack, Text } from '@chakra-ui/react';
import { ListState, SectionCard } from '../../components/SectionCard';
import { useTexts } from '../../i18n';
import { dataKeyItems } from './api';
import { useConfigStatus } from './queries';
import { serviceLabel } from './services';

/**
 * The data encryption key of each service that seals secrets in its tables (payments,
 * streaming-keys), by its id: the one every sealed value names, derived from the key and revealing
 * nothing of it. With the count of older keys that still open values until `make rotate-data-key`.
 */
export function DataKeyCard() {
  const { t } = useTexts();
  const status = useConfigStatus();
  const keys = dataKeyItems(status.data?.data ?? []);
  return (
    <SectionCard id="data-key" title={t('configuration.dataKey.title')} subtitle={t('configuration.dataKey.subtitle')}>
      <ListState query={status} failed={t('configuration.systems.failed')} empty={t('configuration.dataKey.empty')} count={keys.length}>
        <Stack gap="3">
          {keys.map((item) => (
            <Flex key={`${item.service}:${item.name}`} gap="3" justify="space-between" align={{ base: 'flex-start', md: 'center' }} direction={{ base: 'column', md: 'row' }} borderWidth="1px" borderRadius="md" p="3" data-testid="data-key-row" data-service={item.service}>
              <Stack gap="0" minW="0">
                <Text fontWeight="semibold">{t(serviceLabel(item.service))}</Text>
                <Text fontSize="sm" color="fg.muted" overflowWrap="anywhere">{item.name}</Text>
              </Stack>
              <Stack gap="0.5" align={{ base: 'flex-start', md: 'flex-end' }}>
                <Flex gap="2" align="center">
                  <Text fontSize="sm" color="fg.muted">{t('configuration.dataKey.id')}</Text>
                  <Code fontSize="sm" data-testid="data-key-id">{item.dataKey.id}</Code>
                </Flex>
                <Text fontSize="sm" data-testid="data-key-old-keys">
                  {item.dataKey.oldKeys === 0 ? t('configuration.dataKey.noOldKeys') : t('configuration.dataKey.oldKeys', { count: item.dataKey.oldKeys })}
                </Text>
              </Stack>
            </Flex>
          ))}
          <Text fontSize="sm" color="fg.muted">{t('configuration.dataKey.help')}</Text>
        </Stack>
      </ListState>
    </SectionCard>
  );
}
