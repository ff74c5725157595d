import { Alert, Badge, Button, Card, Flex, Heading, Input, SimpleGrid, Spinner, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Form, FormField } from '../../components/Form';
import { useTexts } from '../../i18n';
import { errorText } from '../../lib/api';
import { notify, notifyError } from '../../lib/toast';
import { REMINDER_DAYS, type SettingsReply, type SettingUpdate } from './api';
import { useSaveSetting } from './mutations';
import { useManyChatSettings } from './queries';
import { useLoadFailureToast } from '../qpay/load-failure';

/** Document 2 §2.4: the reminder days form, the base URL form (warned about while missing), and the API status card. */
export function SettingsTab() {
  const { t } = useTexts();
  const settings = useManyChatSettings();
  useLoadFailureToast(settings, t('manychatAdmin.settingsFetchFailed'));
  if (settings.isPending) return <Flex gap="3" align="center" role="status"><Spinner size="sm" /><Text>{t('manychatAdmin.loading')}</Text></Flex>;
  if (settings.isError) return <ErrorAlert title={t('manychatAdmin.settingsFetchFailed')} description={errorText(settings.error, settings.error.message)} />;
  const data = settings.data;
  return (
    <Stack gap="6">
      {!data.base_url && (
        <Alert.Root status="warning" data-testid="base-url-warning">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>{t('manychatAdmin.urlMissing')}</Alert.Title>
            <Alert.Description>{t('manychatAdmin.urlMissingBody')}</Alert.Description>
          </Alert.Content>
        </Alert.Root>
      )}
      <SimpleGrid columns={{ base: 1, lg: 2 }} gap="6" alignItems="start">
        {/* Keyed by the saved value: after a save (or another tab's) the form starts from what is stored. */}
        <DaysForm key={`days-${data.expiry_reminder_days}`} days={data.expiry_reminder_days} />
        <BaseUrlForm key={`url-${data.base_url ?? ''}`} baseUrl={data.base_url} />
        <AlertSubscriberForm key={`alerts-${data.alert_subscriber_id ?? ''}`} subscriberId={data.alert_subscriber_id} />
      </SimpleGrid>
      <ApiStatus status={data.status} />
    </Stack>
  );
}

/** Document 2 §8: 'Settings updated successfully', or a destructive toast with the server's error. */
function useSave(describe: (update: SettingUpdate) => string) {
  const { t } = useTexts();
  return useSaveSetting({
    onSuccess: (_reply, update) => notify({ title: t('manychatAdmin.saved'), description: describe(update), type: 'success' }),
    onError: (error) => notifyError(t('manychatAdmin.error'), error, t('manychatAdmin.saveFailed')),
  });
}

/** The server decides what is valid (1–30, whole days) and says why when not: no browser limits on the field. */
function DaysForm({ days }: { days: number }) {
  const { t } = useTexts();
  const [text, setText] = useState(String(days));
  const save = useSave((update) => t('manychatAdmin.daysSaved', { days: update.value }));
  return (
    <Card.Root size="sm" data-testid="reminder-days">
      <Card.Header><Heading as="h2" size="md">{t('manychatAdmin.daysTitle')}</Heading></Card.Header>
      <Card.Body>
        <Form onSubmit={() => !save.isPending && save.mutate({ key: 'expiry_reminder_days', value: text.trim() })} aria-label={t('manychatAdmin.daysTitle')}>
          <FormField label={t('manychatAdmin.days')} helper={t('manychatAdmin.daysHelper', REMINDER_DAYS)}>
            <Input name="expiry_reminder_days" type="number" inputMode="numeric" value={text} onChange={(event) => setText(event.target.value)} maxW="32" />
          </FormField>
          <Button type="submit" colorPalette="blue" alignSelf="flex-start" loading={save.isPending} loadingText={t('common.saving')}>{t('common.save')}</Button>
        </Form>
      </Card.Body>
    </Card.Root>
  );
}

function BaseUrlForm({ baseUrl }: { baseUrl: string | null }) {
  const { t } = useTexts();
  const [text, setText] = useState(baseUrl ?? '');
  const save = useSave((update) => t('manychatAdmin.urlSaved', { url: String(update.value).trim().replace(/\/+$/, '') }));
  return (
    <Card.Root size="sm" data-testid="base-url">
      <Card.Header><Heading as="h2" size="md">{t('manychatAdmin.urlTitle')}</Heading></Card.Header>
      <Card.Body>
        <Form onSubmit={() => !save.isPending && save.mutate({ key: 'base_url', value: text })} aria-label={t('manychatAdmin.urlTitle')}>
          <FormField label={t('manychatAdmin.url')} helper={t('manychatAdmin.urlHelper', { example: `${baseUrl ?? 'https://shop.example.mn'}/api/streaming/renew/…` })}>
            <Input name="base_url" inputMode="url" value={text} onChange={(event) => setText(event.target.value)} placeholder="https://shop.example.mn" autoComplete="off" />
          </FormField>
          <Button type="submit" colorPalette="blue" alignSelf="flex-start" loading={save.isPending} loadingText={t('common.saving')}>{t('common.save')}</Button>
        </Form>
      </Card.Body>
    </Card.Root>
  );
}

/** Alerts (docs/alerts.md) to the admin's own ManyChat subscriber; empty sends none. */
function AlertSubscriberForm({ subscriberId }: { subscriberId: string | null }) {
  const { t } = useTexts();
  const [text, setText] = useState(subscriberId ?? '');
  const save = useSave((update) => {
    const subscriber = String(update.value).trim();
    return subscriber ? t('manychatAdmin.alertsOn', { subscriber }) : t('manychatAdmin.alertsOff');
  });
  return (
    <Card.Root size="sm" data-testid="alert-subscriber">
      <Card.Header><Heading as="h2" size="md">{t('manychatAdmin.alertsTitle')}</Heading></Card.Header>
      <Card.Body>
        <Form onSubmit={() => !save.isPending && save.mutate({ key: 'alert_subscriber_id', value: text })} aria-label={t('manychatAdmin.alertsTitle')}>
          <FormField label={t('manychatAdmin.alertSubscriber')} helper={t('manychatAdmin.alertSubscriberHelper')}>
            <Input name="alert_subscriber_id" inputMode="numeric" value={text} onChange={(event) => setText(event.target.value)} placeholder="1234567890" autoComplete="off" maxW="64" />
          </FormField>
          <Button type="submit" colorPalette="blue" alignSelf="flex-start" loading={save.isPending} loadingText={t('common.saving')}>{t('common.save')}</Button>
        </Form>
      </Card.Body>
    </Card.Root>
  );
}

function ApiStatus({ status }: { status: SettingsReply['status'] }) {
  const { t } = useTexts();
  return (
    <Card.Root size="sm" data-testid="api-status">
      <Card.Header><Heading as="h2" size="md">{t('manychatAdmin.statusTitle')}</Heading></Card.Header>
      <Card.Body>
        <Stack gap="3">
          <Flex gap="2" align="center" wrap="wrap">
            <Text fontWeight="medium">{t('manychatAdmin.chatApi')}</Text>
            <Badge colorPalette={status.apiConfigured ? 'green' : 'red'} data-testid="api-configured">
              {status.apiConfigured ? t('manychatAdmin.configured') : t('manychatAdmin.notConfigured')}
            </Badge>
            {status.simulated && <Badge colorPalette="purple">{t('manychatAdmin.simulator')}</Badge>}
          </Flex>
          {!status.apiConfigured && <Text fontSize="sm" color="fg.muted">{t('manychatAdmin.notConfiguredBody')}</Text>}
          {status.connected === true && (
            <Text fontSize="sm">{status.pageName ? t('manychatAdmin.connectedTo', { page: status.pageName }) : t('manychatAdmin.connected')}</Text>
          )}
          {status.connected === false && <Text fontSize="sm" color="fg.error">{t('manychatAdmin.connectionFailed', { error: status.error ?? '' })}</Text>}
          <Flex gap="2" align="center" wrap="wrap">
            <Text fontWeight="medium">{t('manychatAdmin.payment')}</Text>
            {/* Document 2 §2.4: the payment line's text is the product's, in either language. */}
            <Text data-testid="payment-line">{status.payment}</Text>
          </Flex>
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}
