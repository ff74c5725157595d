import { Box, Flex, Link, Stack, Text } from '@chakra-ui/react';
import { PageHeader } from '../../components/PageHeader';
import { useTexts, type MessageKey } from '../../i18n';
import { DataKeyCard } from './DataKeyCard';
import { SystemsCard } from './SystemsCard';
import { WebhooksCard } from './WebhooksCard';

const sections: { id: string; title: MessageKey }[] = [
  { id: 'systems', title: 'configuration.systems.title' },
  { id: 'webhooks', title: 'configuration.webhooks.title' },
  { id: 'data-key', title: 'configuration.dataKey.title' },
];

/**
 * /configuration (issue 23): the settings hub. Which outside systems each service has configured,
 * the inbound webhooks with the secret each must send (masked, Copy, Rotate where a route rotates
 * it), and the data encryption key by its id. Nothing here holds a secret: Copy asks for it at the
 * click, and the data key is never sent, only its id.
 */
export default function ConfigurationPage() {
  const { t } = useTexts();
  return (
    <>
      <PageHeader title={t('configuration.title')} subtitle={t('configuration.subtitle')} />
      <Box as="nav" aria-label={t('configuration.jumpTo')} mb="6" mt="-2">
        <Flex gap="1" wrap="wrap" align="center" fontSize="sm">
          <Text as="span" color="fg.muted" me="1">{`${t('configuration.jumpTo')}:`}</Text>
          {sections.map((section) => (
            <Link key={section.id} href={`#${section.id}`} colorPalette="blue" px="1.5" py="0.5" borderRadius="sm" _hover={{ bg: 'bg.muted' }}>
              {t(section.title)}
            </Link>
          ))}
        </Flex>
      </Box>
      <Stack gap="6">
        <SystemsCard />
        <WebhooksCard />
        <DataKeyCard />
      </Stack>
    </>
  );
}
