import { Badge, Box, Button, Card, Flex, Heading, Input, SimpleGrid, Spinner, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Form, FormField } from '../../components/Form';
import { useTexts, type MessageKey } from '../../i18n';
import { errorText } from '../../lib/api';
import { notify, notifyError } from '../../lib/toast';
import { CountGrid } from '../streaming-keys/CountGrid';
import type { Delivery, ExpiryCheckCounts, TemplatePreview, UtilityTemplate } from './api';
import { useExpiryCheck, useSaveSetting } from './mutations';
import { useHeldMessages, useManyChatSettings, useTemplates } from './queries';
import { useLoadFailureToast } from '../qpay/load-failure';

/**
 * Document 2 §2.4: the manual expiry check with its counts, and the three templates with their
 * previews; and since Meta deprecated the message tags (issue 21), each kind's utility template
 * for outside the 24-hour window and the messages held for want of one.
 */
export function NotificationsTab() {
  return (
    <Stack gap="6">
      <ExpiryCheck />
      <HeldMessages />
      <UtilityTemplates />
      <Templates />
    </Stack>
  );
}

const countLabels: { field: keyof ExpiryCheckCounts; label: MessageKey }[] = [
  { field: 'checked', label: 'manychatAdmin.count.checked' },
  { field: 'sent', label: 'manychatAdmin.count.sent' },
  { field: 'failed', label: 'manychatAdmin.count.failed' },
  { field: 'optedOut', label: 'manychatAdmin.count.optedOut' },
  { field: 'held', label: 'manychatAdmin.count.held' },
  { field: 'skipped', label: 'manychatAdmin.count.skipped' },
];

function ExpiryCheck() {
  const { t, format } = useTexts();
  const settings = useManyChatSettings();
  const [last, setLast] = useState<{ counts: ExpiryCheckCounts; at: Date; joined: boolean; days: number } | null>(null);
  const check = useExpiryCheck({
    onSuccess: (reply) => {
      setLast({ counts: reply.data, at: new Date(), joined: reply.joined, days: reply.days });
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
              {/* Whose counts these are: a press joins a check already running only when it has the same settings. */}
              <Text fontSize="sm" color="fg.muted" data-testid="check-run" data-joined={last.joined}>
                {t(last.joined ? 'manychatAdmin.joinedCheck' : 'manychatAdmin.ownCheck', { days: last.days })}
              </Text>
              <CountGrid counts={countLabels.map(({ field, label }) => ({ field, label: t(label), value: last.counts[field] }))} />
            </Stack>
          )}
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}

function HeldMessages() {
  const { t } = useTexts();
  const held = useHeldMessages();
  useLoadFailureToast(held, t('manychatAdmin.heldFetchFailed'));
  const rows = held.data?.data ?? [];
  return (
    <Card.Root size="sm" data-testid="held-messages">
      <Card.Header>
        <Flex gap="3" justify="space-between" align="flex-start" wrap="wrap">
          <Stack gap="1" flex="1" minW="56">
            <Heading as="h2" size="md">{t('manychatAdmin.heldTitle')}</Heading>
            <Text fontSize="sm" color="fg.muted">{t('manychatAdmin.heldBody')}</Text>
          </Stack>
          <Button size="sm" variant="outline" onClick={() => void held.refetch()} loading={held.isFetching}>{t('manychatAdmin.refresh')}</Button>
        </Flex>
      </Card.Header>
      <Card.Body>
        {held.isPending && <Flex gap="3" align="center" role="status"><Spinner size="sm" /><Text>{t('manychatAdmin.loading')}</Text></Flex>}
        {held.isError && <ErrorAlert title={t('manychatAdmin.heldFetchFailed')} description={errorText(held.error, held.error.message)} />}
        {held.isSuccess && rows.length === 0 && <Text color="fg.muted">{t('manychatAdmin.heldEmpty')}</Text>}
        {/* A list rather than a table: the reason is a sentence, and it must read whole on a phone too. */}
        <Stack as="ul" gap="2" listStyleType="none" aria-label={t('manychatAdmin.heldTitle')}>
          {rows.map((row) => <HeldMessage key={row.id} message={row} />)}
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}

function HeldMessage({ message }: { message: Delivery }) {
  const { t, format } = useTexts();
  const about = message.invoiceId ?? (message.keyId === null ? null : t('manychatAdmin.keyNumber', { id: message.keyId }));
  return (
    <Box as="li" borderWidth="1px" borderRadius="md" p="3" data-delivery={message.id}>
      <Flex gap="2" align="center" wrap="wrap">
        <Badge colorPalette="purple">{t(`manychatAdmin.kind.${message.kind}`)}</Badge>
        <Text fontWeight="medium">{t('manychatAdmin.heldCustomer', { id: message.subscriberId })}</Text>
        {about && <Text fontSize="sm" fontFamily="mono">{about}</Text>}
        <Text fontSize="sm" color="fg.muted" ms="auto">{format.dateTime(message.createdAt)}</Text>
      </Flex>
      {/* The server's words: they say what to set, and where. */}
      <Text fontSize="sm" color="fg.muted" mt="1">{message.lastError}</Text>
    </Box>
  );
}

function UtilityTemplates() {
  const { t } = useTexts();
  const settings = useManyChatSettings();
  return (
    <Card.Root size="sm" data-testid="utility-templates">
      <Card.Header>
        <Heading as="h2" size="md">{t('manychatAdmin.utilityTitle')}</Heading>
        <Text fontSize="sm" color="fg.muted">{t('manychatAdmin.utilityBody')}</Text>
      </Card.Header>
      <Card.Body>
        {settings.isPending && <Flex gap="3" align="center" role="status"><Spinner size="sm" /><Text>{t('manychatAdmin.loading')}</Text></Flex>}
        {settings.isError && <ErrorAlert title={t('manychatAdmin.settingsFetchFailed')} description={errorText(settings.error, settings.error.message)} />}
        <SimpleGrid columns={{ base: 1, lg: 2 }} gap="4">
          {/* Keyed by the saved name: after a save the field starts from what is stored. */}
          {(settings.data?.utility_templates ?? []).map((template) => <UtilityTemplateForm key={`${template.kind}-${template.name ?? ''}`} template={template} />)}
        </SimpleGrid>
      </Card.Body>
    </Card.Root>
  );
}

/** One kind's template name; the server says what a name may be. */
function UtilityTemplateForm({ template }: { template: UtilityTemplate }) {
  const { t } = useTexts();
  const kind = t(`manychatAdmin.kind.${template.kind}`);
  const [text, setText] = useState(template.name ?? '');
  const save = useSaveSetting({
    onSuccess: (reply) => {
      const name = String(reply.data.value);
      notify({ title: t('manychatAdmin.saved'), description: name ? t('manychatAdmin.utilitySaved', { kind, name }) : t('manychatAdmin.utilityCleared', { kind }), type: 'success' });
    },
    onError: (error) => notifyError(t('manychatAdmin.error'), error, t('manychatAdmin.saveFailed')),
  });
  return (
    <Box borderWidth="1px" borderRadius="md" p="3" data-utility-template={template.kind}>
      <Form onSubmit={() => !save.isPending && save.mutate({ key: `template_${template.kind}`, value: text })} aria-label={kind}>
        <Flex gap="2" align="center" wrap="wrap">
          <Heading as="h3" size="sm">{kind}</Heading>
          <Badge colorPalette={template.name ? 'green' : 'orange'} data-testid="utility-state">{template.name ? t('manychatAdmin.utilitySet') : t('manychatAdmin.utilityNotSet')}</Badge>
        </Flex>
        <FormField label={t('manychatAdmin.utilityName', { kind })} helper={t('manychatAdmin.utilityHelper')}>
          <Input value={text} onChange={(event) => setText(event.target.value)} placeholder={t('manychatAdmin.utilityPlaceholder', { name: template.kind })} autoComplete="off" spellCheck={false} fontFamily="mono" />
        </FormField>
        <Flex gap="1" wrap="wrap" align="center">
          <Text fontSize="xs" color="fg.muted">{t('manychatAdmin.variables')}:</Text>
          {template.variables.map((variable) => <Badge key={variable} variant="outline" fontFamily="mono">{variable}</Badge>)}
        </Flex>
        <Button type="submit" size="sm" colorPalette="blue" alignSelf="flex-start" loading={save.isPending} loadingText={t('common.saving')}>{t('common.save')}</Button>
      </Form>
    </Box>
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
