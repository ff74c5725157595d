import { Badge, Box, Button, Card, Code, DataList, Flex, Heading, Link, Stack, Text, Textarea } from '@chakra-ui/react';
import { useState } from 'react';
import { CopyButton } from '../../components/CopyButton';
import { Form, FormField } from '../../components/Form';
import { JsonBlock } from '../../components/JsonBlock';
import { RotatableSecret } from '../../components/RotatableSecret';
import { useTexts } from '../../i18n';
import { parseJson } from '../../lib/json';
import { notify, notifyError } from '../../lib/toast';
import { fetchWebhookSecret, type TestWebhookReply } from './api';
import { useRotateWebhookSecret, useTestWebhook } from './mutations';
import { useQpaySettings } from './queries';
import { chatReplyMessages, samplePayloadText } from './webhook-payload';

/** Document 3 §2: the two inbound paths, what they are in full, the chat webhook's secret, and the chat webhook tried with a payload. */
export function WebhooksTab() {
  return (
    <Stack gap="6">
      <InboundAddresses />
      <WebhookSecret />
      <TestWebhook />
    </Stack>
  );
}

const WEBHOOK_PATH = '/api/qpay/webhook';
const CALLBACK_PATH = '/api/qpay/callback';

function InboundAddresses() {
  const { t } = useTexts();
  const settings = useQpaySettings();
  const addresses = [
    { what: t('qpay.webhookAddress'), help: t('qpay.webhookAddressHelp'), path: settings.data?.webhookPath ?? WEBHOOK_PATH, url: settings.data?.webhookUrl, testId: 'webhook-address' },
    { what: t('qpay.callbackAddress'), help: t('qpay.callbackAddressHelp'), path: settings.data?.callbackPath ?? CALLBACK_PATH, url: settings.data?.callbackUrl, testId: 'callback-address' },
  ];
  return (
    <Card.Root size="sm" data-testid="inbound-addresses">
      <Card.Header>
        <Heading as="h2" size="md">{t('qpay.addressesTitle')}</Heading>
      </Card.Header>
      <Card.Body>
        <Stack gap="4">
          {addresses.map(({ what, help, path, url, testId }) => (
            <Box key={testId} data-testid={testId}>
              <Flex gap="2" align="center" wrap="wrap">
                <Text fontWeight="semibold">{what}</Text>
                <Code data-testid={`${testId}-path`}>{path}</Code>
              </Flex>
              <Text fontSize="sm" color="fg.muted">{help}</Text>
              {url && (
                <Flex gap="2" align="center" mt="1">
                  <Text fontFamily="mono" fontSize="sm" wordBreak="break-all" flex="1" data-testid={`${testId}-url`}>{url}</Text>
                  <CopyButton value={url} what={what} flexShrink="0" />
                </Flex>
              )}
            </Box>
          ))}
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}

/**
 * Issue 18 §1: the header the chat flow must send. Shown masked; Copy asks the server for the
 * whole value at the click (it is never on the page), Rotate replaces it after a confirmation.
 */
function WebhookSecret() {
  const { t, format } = useTexts();
  const settings = useQpaySettings();
  const rotate = useRotateWebhookSecret({
    onSuccess: () => notify({ title: t('qpay.secretRotated'), description: t('qpay.secretRotatedBody'), type: 'success' }),
    onError: (error) => notifyError(t('qpay.secretRotateFailed'), error, t('qpay.secretRotateFailedDefault')),
  });
  const rotatedAt = settings.data?.webhookSecretRotatedAt;
  return (
    <Card.Root size="sm" data-testid="webhook-secret">
      <Card.Header>
        <Heading as="h2" size="md">{t('qpay.secretTitle')}</Heading>
        <Text fontSize="sm" color="fg.muted">{t('qpay.secretSubtitle')}</Text>
      </Card.Header>
      <Card.Body>
        <RotatableSecret
          testId="webhook-secret"
          header="X-Webhook-Secret"
          masked={settings.data?.webhookSecret}
          unreadable={settings.data?.webhookSecretUnreadable}
          rotated={settings.data ? (rotatedAt ? t('qpay.secretRotatedAt', { time: format.dateTime(rotatedAt) }) : t('qpay.secretNeverRotated')) : undefined}
          copyWhat={t('qpay.secretTitle')}
          reveal={fetchWebhookSecret}
          rotation={{ label: t('qpay.secretRotate'), title: t('qpay.secretRotateTitle'), message: t('qpay.secretRotateMessage'), run: () => rotate.mutateAsync(), busy: rotate.isPending }}
        />
      </Card.Body>
    </Card.Root>
  );
}

/** Sends the editor's payload through the chat webhook as the chat would; invalid JSON is never sent. */
function TestWebhook() {
  const { t } = useTexts();
  const [text, setText] = useState(samplePayloadText);
  const [result, setResult] = useState<TestWebhookReply | null>(null);
  const parsed = parseJson(text);
  const send = useTestWebhook({
    onSuccess: (reply) => {
      setResult(reply);
      if (reply.success) notify({ title: t('qpay.testSent'), description: t('qpay.testSentBody', { status: reply.data.statusCode }), type: 'success' });
      else notify({ title: t('qpay.testFailed'), description: reply.error ?? t('qpay.testFailedDefault'), type: 'error' });
    },
    onError: (error) => {
      setResult(null);
      notifyError(t('qpay.testFailed'), error, t('qpay.testFailedDefault'));
    },
  });
  const submit = () => {
    if (parsed.ok && !send.isPending) send.mutate(parsed.value);
  };

  return (
    <Card.Root size="sm" data-testid="test-webhook">
      <Card.Header>
        <Heading as="h2" size="md">{t('qpay.testTitle')}</Heading>
        <Text fontSize="sm" color="fg.muted">{t('qpay.testSubtitle')}</Text>
      </Card.Header>
      <Card.Body>
        <Stack gap="4">
          <Form onSubmit={submit} aria-label={t('qpay.testTitle')}>
            <FormField label={t('qpay.payload')} error={parsed.ok ? null : t('qpay.payloadInvalid', { reason: parsed.error })}>
              <Textarea
                name="payload"
                value={text}
                onChange={(event) => setText(event.target.value)}
                fontFamily="mono"
                fontSize="sm"
                rows={14}
                spellCheck={false}
                autoComplete="off"
              />
            </FormField>
            <Flex gap="2" wrap="wrap">
              <Button type="submit" colorPalette="blue" disabled={!parsed.ok} loading={send.isPending} loadingText={t('qpay.sending')}>{t('qpay.send')}</Button>
              <Button variant="outline" onClick={() => setText(samplePayloadText())}>{t('qpay.reset')}</Button>
            </Flex>
          </Form>
          {result && <TestResult result={result} />}
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}

function TestResult({ result }: { result: TestWebhookReply }) {
  const { t } = useTexts();
  const messages = chatReplyMessages(result.data.response);
  return (
    <Box borderWidth="1px" borderRadius="md" p="4" bg="bg.subtle" data-testid="test-result" aria-live="polite">
      <Heading as="h3" size="sm" mb="3">{t('qpay.resultTitle')}</Heading>
      <DataList.Root orientation="horizontal" size="sm">
        <DataList.Item>
          <DataList.ItemLabel>{t('qpay.resultSuccess')}</DataList.ItemLabel>
          <DataList.ItemValue>
            <Badge colorPalette={result.success ? 'green' : 'red'} data-testid="test-result-success">{result.success ? t('qpay.yes') : t('qpay.no')}</Badge>
          </DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>{t('qpay.resultStatusCode')}</DataList.ItemLabel>
          <DataList.ItemValue fontFamily="mono" data-testid="test-result-status">{result.data.statusCode}</DataList.ItemValue>
        </DataList.Item>
        {result.error && (
          <DataList.Item>
            <DataList.ItemLabel>{t('qpay.resultError')}</DataList.ItemLabel>
            <DataList.ItemValue color="fg.error" data-testid="test-result-error">{result.error}</DataList.ItemValue>
          </DataList.Item>
        )}
      </DataList.Root>
      {messages.map((message, index) => (
        <Box key={index} mt="3" p="3" borderRadius="md" bg="bg" borderWidth="1px" data-testid="test-result-message">
          <Text fontSize="sm">{message.text}</Text>
          {message.links.map((link) => (
            <Text key={link.url} fontSize="sm" mt="1">
              {link.caption}:{' '}
              <Link href={link.url} target="_blank" rel="noreferrer" colorPalette="blue" color="colorPalette.fg" wordBreak="break-all" data-testid="test-result-link">{link.url}</Link>
            </Text>
          ))}
        </Box>
      ))}
      <Text fontSize="sm" fontWeight="semibold" mt="3" mb="1">{t('qpay.resultResponse')}</Text>
      <JsonBlock value={result.data.response} />
    </Box>
  );
}
