import { Alert, Stack, Text } from '@chakra-ui/react';
import { Link } from 'react-router';
import { useTexts } from '../../i18n';
import { useAttentionInvoices } from '../streaming-keys/queries';

/**
 * Issue 9: a paid order with no free key "is alerted on /streaming-keys and /qpay". The money is
 * in, so the bank-payment admin sees it here too; the fix (add keys, Assign key) is on Streaming Keys.
 */
export function OrdersWaitingAlert() {
  const { t } = useTexts();
  const waiting = useAttentionInvoices().data?.data ?? [];
  if (waiting.length === 0) return null;
  return (
    <Alert.Root status="warning" data-testid="orders-waiting" mb="4">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>{t('qpay.waitingTitle', { count: waiting.length })}</Alert.Title>
        <Alert.Description>
          <Stack gap="1">
            <Text>{t('qpay.waitingBody')}</Text>
            {waiting.slice(0, 5).map((order) => (
              <Text key={order.id} fontSize="sm" wordBreak="break-word">
                {t('qpay.waitingOrder', { service: order.serviceName, months: order.duration, email: order.email ?? '—', invoiceId: order.invoiceId ?? '—' })}
              </Text>
            ))}
            <Text fontWeight="semibold" textDecoration="underline">
              <Link to="/streaming-keys">{t('qpay.waitingOpen')}</Link>
            </Text>
          </Stack>
        </Alert.Description>
      </Alert.Content>
    </Alert.Root>
  );
}
