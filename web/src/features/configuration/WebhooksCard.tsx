import { Badge, Box, Code, Flex, Heading, Link, Separator, Stack, Text } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router';
import { CopyButton } from '../../components/CopyButton';
import { ErrorAlert } from '../../components/ErrorAlert';
import { RotatableSecret } from '../../components/RotatableSecret';
import { Loading, SectionCard } from '../../components/SectionCard';
import { useTexts } from '../../i18n';
import { errorText } from '../../lib/api';
import { notify, notifyError } from '../../lib/toast';
import { CHAT_SECRET_HEADER, fetchWebhookSecret, inboundPaths, publicAddress, type QpaySettings } from './api';
import { useRotateWebhookSecret } from './mutations';
import { useQpaySettings } from './queries';

/**
 * Every inbound webhook and the secret it must send. The chat flow's two requests share one secret
 * (payments keeps it sealed in qpay_settings; ai-chat asks payments to check it): masked, Copy
 * through the admin-only reveal /qpay's Copy uses, Rotate through its rotate route. QPay's
 * callback has no shared secret: each invoice's callback address carries its own token.
 */
export function WebhooksCard() {
  const { t } = useTexts();
  const settings = useQpaySettings();
  return (
    <SectionCard id="webhooks" title={t('configuration.webhooks.title')} subtitle={t('configuration.webhooks.subtitle')}>
      {settings.isPending && <Loading />}
      {settings.isError && <ErrorAlert title={t('configuration.webhooks.failed')} description={errorText(settings.error, settings.error.message)} />}
      {settings.data && (
        <Stack gap="5">
          <ChatWebhook settings={settings.data} />
          <Separator />
          <QpayCallback settings={settings.data} />
          <Link asChild colorPalette="blue" fontSize="sm" alignSelf="flex-start">
            <RouterLink to="/qpay?tab=webhooks">{t('configuration.webhooks.test')}</RouterLink>
          </Link>
        </Stack>
      )}
    </SectionCard>
  );
}

function ChatWebhook({ settings }: { settings: QpaySettings }) {
  const { t, format } = useTexts();
  const rotate = useRotateWebhookSecret({
    onSuccess: () => notify({ title: t('configuration.rotated'), description: t('configuration.rotatedBody'), type: 'success' }),
    onError: (error) => notifyError(t('configuration.rotateFailed'), error, t('configuration.rotateFailedDefault')),
  });
  const rotatedAt = settings.webhookSecretRotatedAt;
  return (
    <Stack gap="3" data-testid="chat-webhook">
      <Heading as="h3" size="sm">{t('configuration.chat.title')}</Heading>
      <Text fontSize="sm" color="fg.muted">{t('configuration.chat.help')}</Text>
      <Address what={t('configuration.chat.messages')} path={inboundPaths.chatMessages} url={publicAddress(settings, inboundPaths.chatMessages)} testId="chat-messages-address" />
      <Address what={t('configuration.chat.payment')} path={settings.webhookPath} url={settings.webhookUrl} testId="chat-payment-address" />
      <Box borderWidth="1px" borderRadius="md" p="3">
        <Text fontSize="sm" fontWeight="semibold" mb="2">{t('configuration.chat.secret')}</Text>
        <RotatableSecret
          testId="chat-webhook-secret"
          header={CHAT_SECRET_HEADER}
          masked={settings.webhookSecret}
          unreadable={settings.webhookSecretUnreadable}
          rotated={rotatedAt ? t('configuration.chat.rotatedAt', { time: format.dateTime(rotatedAt) }) : t('configuration.chat.neverRotated')}
          copyWhat={t('configuration.chat.secret')}
          reveal={fetchWebhookSecret}
          rotation={{ label: t('configuration.rotate'), title: t('configuration.rotateTitle'), message: t('configuration.rotateMessage'), run: () => rotate.mutateAsync(), busy: rotate.isPending }}
        />
      </Box>
    </Stack>
  );
}

function QpayCallback({ settings }: { settings: QpaySettings }) {
  const { t } = useTexts();
  return (
    <Stack gap="3" data-testid="qpay-callback">
      <Flex gap="2" align="center" wrap="wrap">
        <Heading as="h3" size="sm">{t('configuration.callback.title')}</Heading>
        <Badge colorPalette="blue">{t('configuration.callback.badge')}</Badge>
      </Flex>
      <Text fontSize="sm" color="fg.muted">{t('configuration.callback.help')}</Text>
      <Address what={t('configuration.callback.address')} path={settings.callbackPath || inboundPaths.qpayCallback} url={settings.callbackUrl} testId="qpay-callback-address" />
    </Stack>
  );
}

/** One inbound path: what calls it, the path, and the full address with Copy (an address is no secret). */
function Address({ what, path, url, testId }: { what: string; path: string; url: string; testId: string }) {
  const { t } = useTexts();
  return (
    <Box data-testid={testId}>
      <Flex gap="2" align="center" wrap="wrap">
        <Text fontSize="sm" fontWeight="semibold">{what}</Text>
        <Code data-testid={`${testId}-path`}>{path}</Code>
      </Flex>
      <Flex gap="2" align="center" mt="1">
        <Text fontFamily="mono" fontSize="sm" wordBreak="break-all" flex="1" minW="0" data-testid={`${testId}-url`}>{url}</Text>
        <CopyButton value={url} what={t('configuration.address', { what })} flexShrink="0" />
      </Flex>
    </Box>
  );
}
