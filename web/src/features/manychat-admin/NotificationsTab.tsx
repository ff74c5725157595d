import { Badge, Box, Button, Card, Flex, Heading, SimpleGrid, Spinner, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useTexts, type MessageKey } from '../../i18n';
import { errorText } from '../../lib/api';
import { notify, notifyError } from '../../lib/toast';
import { CountGrid } from '../streaming-keys/CountGrid';
import type { ExpiryCheckCounts, TemplatePreview } from './api';
import { useExpiryCheck } from './mutations';
import { useManyChatSettings, useTemplates } from './queries';
import { useLoadFailureToast } from '../qpay/load-failure';

/** Document 2 §2.4: the manual expiry check with its counts, and the three templates with their previews. */
export function NotificationsTab() {
  return (
    <Stack gap="6">
      <ExpiryCheck />
      <Templates />
    </Stack>
  );
}

const countLabels: { field: keyof ExpiryCheckCounts; label: MessageKey }[] = [
  { field: 'checked', label: 'manychatAdmin.count.checked' },
  { field: 'sent', label: 'manychatAdmin.count.sent' },
  { field: 'failed', label: 'manychatAdmin.count.failed' },
  { field: 'optedOut', label: 'manychatAdmin.count.optedOut' },
  { field: 'skipped', label: 'manychatAdmin.count.skipped' },
];

function ExpiryCheck() {
  const { t, format } = useTexts();
  const settings = useManyChatSettings();
  const [last, setLast] = useState<{ counts: ExpiryCheckCounts; at: Date } | null>(null);
  const check = useExpiryCheck({
    onSuccess: (reply) => {
      setLast({ counts: reply.data, at: new Date() });
      notify({ title: t('manychatAdmin.checked'), description: t('manychatAdmin.checkedBody', reply.data), type: 'success' });
    },
    onError: (error) => notifyError(t('manychatAdmin.error'), error, t('manychatAdmin.checkFailed')),
  });
  return (
    <Card.Root size="sm" data-testid="expiry-check">
      <Card.Header>
        <Heading as="h2" size="md">{t('manychatAdmin.checkTitle')}</Heading>
        <Text fontSize="sm" color="fg.muted">{t('manychatAdmin.checkBody', { days: settings.data?.expiry_reminder_days ?? '…' })}</Text>
      </Card.Header>
      <Card.Body>
        <Stack gap="4">
          <Button colorPalette="blue" alignSelf="flex-start" onClick={() => !check.isPending && check.mutate()} loading={check.isPending} loadingText={t('manychatAdmin.checking')}>
            {t('manychatAdmin.runCheck')}
          </Button>
          {last && (
            <Stack gap="2" data-testid="check-counts">
              <Text fontSize="sm" color="fg.muted">{t('manychatAdmin.lastCheck', { time: format.dateTime(last.at) })}</Text>
              <CountGrid counts={countLabels.map(({ field, label }) => ({ field, label: t(label), value: last.counts[field] }))} />
            </Stack>
          )}
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}

function Templates() {
  const { t } = useTexts();
  const templates = useTemplates();
  useLoadFailureToast(templates, t('manychatAdmin.templatesFetchFailed'));
  const settings = useManyChatSettings();
  return (
    <Card.Root size="sm" data-testid="templates">
      <Card.Header><Heading as="h2" size="md">{t('manychatAdmin.templatesTitle')}</Heading></Card.Header>
      <Card.Body>
        {templates.isPending && <Flex gap="3" align="center" role="status"><Spinner size="sm" /><Text>{t('manychatAdmin.loading')}</Text></Flex>}
        {templates.isError && <ErrorAlert title={t('manychatAdmin.templatesFetchFailed')} description={errorText(templates.error, templates.error.message)} />}
        <SimpleGrid columns={{ base: 1, lg: 3 }} gap="4">
          {(templates.data?.data ?? []).map((template) => (
            <Template key={template.kind} template={template} days={settings.data?.expiry_reminder_days} />
          ))}
        </SimpleGrid>
      </Card.Body>
    </Card.Root>
  );
}

function Template({ template, days }: { template: TemplatePreview; days: number | undefined }) {
  const { t } = useTexts();
  return (
    <Box borderWidth="1px" borderRadius="md" p="3" data-template={template.kind}>
      <Stack gap="2">
        <Heading as="h3" size="sm">{t(`manychatAdmin.template.${template.kind}`)}</Heading>
        <Text fontSize="sm" color="fg.muted">{t(`manychatAdmin.template.${template.kind}.about`, { days: days ?? '…' })}</Text>
        <Flex gap="1" wrap="wrap" align="center">
          <Text fontSize="xs" color="fg.muted">{t('manychatAdmin.variables')}:</Text>
          {template.variables.map((variable) => <Badge key={variable} variant="outline" fontFamily="mono">{variable}</Badge>)}
        </Flex>
        <Text fontSize="xs" fontWeight="medium">{t('manychatAdmin.preview')}</Text>
        {/* The message as the chat shows it: its own line breaks, no markup. */}
        <Box as="pre" whiteSpace="pre-wrap" wordBreak="break-word" fontFamily="inherit" fontSize="sm" bg="bg.muted" borderRadius="md" p="3" data-testid="template-preview">
          {template.sample}
        </Box>
      </Stack>
    </Box>
  );
}
