import { Box, Button, Card, Flex, Heading, Input, NativeSelect, Spinner, Stack, Switch, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Form, FormField } from '../../components/Form';
import { useTexts } from '../../i18n';
import { errorText } from '../../lib/api';
import { notify, notifyError } from '../../lib/toast';
import { useLoadFailureToast } from './load-failure';
import type { QpayEnvironment, QpaySettings } from './api';
import { useSaveSettings } from './mutations';
import { useQpaySettings } from './queries';

export function SettingsTab() {
  const { t } = useTexts();
  const settings = useQpaySettings();
  useLoadFailureToast(settings, t('qpay.settingsFetchFailed'));
  if (settings.isPending) {
    return <Flex gap="3" align="center" role="status"><Spinner size="sm" /><Text>{t('qpay.settingsLoading')}</Text></Flex>;
  }
  if (settings.isError) return <ErrorAlert testId="settings-error" title={t('qpay.settingsFetchFailed')} description={errorText(settings.error, settings.error.message)} />;
  // A save gives new settings (and a new updatedAt): the form starts again from them, the secret field blank.
  return <SettingsForm key={settings.data.updatedAt ?? 'never-saved'} settings={settings.data} />;
}

/** Document 3 §2/§5: client id, secret (kept when left blank), invoice code, sandbox or production, enabled. */
function SettingsForm({ settings }: { settings: QpaySettings }) {
  const { t, format } = useTexts();
  const [clientId, setClientId] = useState(settings.qpayClientId);
  const [secret, setSecret] = useState('');
  const [invoiceCode, setInvoiceCode] = useState(settings.qpayInvoiceCode);
  const [callbackUrl, setCallbackUrl] = useState(settings.qpayCallbackUrl);
  const [environment, setEnvironment] = useState<QpayEnvironment>(settings.qpayEnvironment);
  const [enabled, setEnabled] = useState(settings.enabled);
  const save = useSaveSettings({
    onSuccess: () => notify({ title: t('qpay.settingsSaved'), description: t('qpay.settingsSavedBody'), type: 'success' }),
    onError: (error) => notifyError(t('qpay.updateFailed'), error, t('qpay.updateFailedDefault')),
  });
  const submit = () => {
    if (save.isPending) return;
    save.mutate({
      qpayClientId: clientId.trim(),
      // Left out when blank: the stored secret stays.
      ...(secret.trim() ? { qpayClientSecret: secret.trim() } : {}),
      qpayInvoiceCode: invoiceCode.trim(),
      qpayCallbackUrl: callbackUrl.trim(),
      qpayEnvironment: environment,
      enabled,
    });
  };

  return (
    <Card.Root size="sm" data-testid="qpay-settings">
      <Card.Header>
        <Heading as="h2" size="md">{t('qpay.settingsTitle')}</Heading>
        <Text fontSize="sm" color="fg.muted">{t('qpay.settingsSubtitle')}</Text>
      </Card.Header>
      <Card.Body>
        <Form onSubmit={submit} aria-label={t('qpay.settingsTitle')} gap="4" maxW="xl">
          <FormField label={t('qpay.clientId')}>
            <Input name="qpayClientId" value={clientId} onChange={(event) => setClientId(event.target.value)} maxLength={100} autoComplete="off" />
          </FormField>
          <FormField
            label={t('qpay.clientSecret')}
            helper={settings.qpayClientSecretSet && !settings.qpayClientSecretUnreadable ? t('qpay.clientSecretKept', { masked: settings.qpayClientSecret }) : t('qpay.clientSecretNotSet')}
            error={settings.qpayClientSecretUnreadable ? t('common.secretUnreadable', { reason: settings.qpayClientSecretUnreadable }) : null}
          >
            <Input
              name="qpayClientSecret"
              type="password"
              value={secret}
              onChange={(event) => setSecret(event.target.value)}
              placeholder={settings.qpayClientSecretSet ? settings.qpayClientSecret : ''}
              maxLength={200}
              autoComplete="new-password"
            />
          </FormField>
          <FormField label={t('qpay.invoiceCode')} helper={t('qpay.invoiceCodeHelper')}>
            <Input name="qpayInvoiceCode" value={invoiceCode} onChange={(event) => setInvoiceCode(event.target.value)} maxLength={45} autoComplete="off" />
          </FormField>
          <FormField label={t('qpay.environment')}>
            <NativeSelect.Root>
              <NativeSelect.Field name="qpayEnvironment" value={environment} onChange={(event) => setEnvironment(event.target.value as QpayEnvironment)}>
                <option value="sandbox">{t('qpay.environment.sandbox')}</option>
                <option value="production">{t('qpay.environment.production')}</option>
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
          </FormField>
          <FormField label={t('qpay.callbackUrl')} helper={t('qpay.callbackUrlHelper', { url: settings.callbackUrl })}>
            <Input name="qpayCallbackUrl" type="url" value={callbackUrl} onChange={(event) => setCallbackUrl(event.target.value)} placeholder="https://" autoComplete="off" />
          </FormField>
          <Box>
            <Switch.Root name="enabled" checked={enabled} onCheckedChange={(event) => setEnabled(event.checked)}>
              <Switch.HiddenInput />
              <Switch.Control />
              <Switch.Label>{t('qpay.enabled')}</Switch.Label>
            </Switch.Root>
            <Text fontSize="sm" color="fg.muted" mt="1">{t('qpay.enabledHelper')}</Text>
          </Box>
          <Stack gap="1" align="flex-start">
            <Button type="submit" colorPalette="blue" loading={save.isPending} loadingText={t('common.saving')}>{t('common.save')}</Button>
            {settings.updatedAt && <Text fontSize="xs" color="fg.muted" data-testid="settings-updated-at">{t('qpay.lastSaved', { time: format.dateTime(settings.updatedAt) })}</Text>}
          </Stack>
        </Form>
      </Card.Body>
    </Card.Root>
  );
}
