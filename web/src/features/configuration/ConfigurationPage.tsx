import { Stack } from '@chakra-ui/react';
import { JumpLinks } from '../../components/JumpLinks';
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
      <JumpLinks label="configuration.jumpTo" sections={sections} />
      <Stack gap="6">
        <SystemsCard />
        <WebhooksCard />
        <DataKeyCard />
      </Stack>
    </>
  );
}
