import { Alert, Box, Button, Flex, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { Link } from 'react-router';
import { ConfirmDialog } from '../../components/Dialog';
import { useTexts } from '../../i18n';
import { notify, notifyError } from '../../lib/toast';
import type { StreamingInvoiceView } from '../streaming-keys/api';
import { useAssignKey, useRefundOrder } from '../streaming-keys/mutations';
import { useAttentionInvoices } from '../streaming-keys/queries';

type Confirming = { action: 'approve' | 'refund'; order: StreamingInvoiceView } | null;

/**
 * Issue 9: a paid order with no free key "is alerted on /streaming-keys and /qpay". Issue 18: so
 * is an order paid below its price, which gets no key until an admin approves it (a key anyway)
 * or refunds it; both are done here, each after a confirmation. Keys themselves are added on
 * Streaming Keys.
 */
export function OrdersWaitingAlert() {
  const { t, format } = useTexts();
  const waiting = useAttentionInvoices().data?.data ?? [];
  const [confirming, setConfirming] = useState<Confirming>(null);
  const approve = useAssignKey({
    onSuccess: (reply) => {
      setConfirming(null);
      notify({ title: t('qpay.orderApproved'), description: t('qpay.orderApprovedBody', { key: reply.data.key.key, invoiceId: reply.data.invoice.invoiceId ?? reply.data.invoice.id }), type: 'success' });
    },
    onError: (error) => {
      setConfirming(null);
      notifyError(t('qpay.orderApproveFailed'), error, t('qpay.orderApproveFailedDefault'));
    },
  });
  const refund = useRefundOrder({
    onSuccess: (reply) => {
      setConfirming(null);
      notify({ title: t('qpay.orderRefunded'), description: reply.message, type: 'success' });
    },
    onError: (error) => {
      setConfirming(null);
      notifyError(t('qpay.orderRefundFailed'), error, t('qpay.orderRefundFailedDefault'));
    },
  });
  if (waiting.length === 0) return null;
  const belowPrice = waiting.filter((order) => order.attentionKind === 'price_check');
  const noKey = waiting.filter((order) => order.attentionKind !== 'price_check');
  const busy = approve.isPending || refund.isPending;
  const target = confirming?.order;
  const what = (order: StreamingInvoiceView) => ({ service: order.serviceName, months: order.duration, email: order.email ?? '—', invoiceId: order.invoiceId ?? '—', amount: format.tugrik(order.amount) });

  return (
    <Stack gap="3" mb="4">
      {belowPrice.length > 0 && (
        <Alert.Root status="error" data-testid="orders-below-price">
          <Alert.Indicator />
          <Alert.Content minW="0">
            <Alert.Title>{t('qpay.belowPriceTitle', { count: belowPrice.length })}</Alert.Title>
            <Alert.Description>
              <Stack gap="2" mt="1">
                <Text>{t('qpay.belowPriceBody')}</Text>
                {belowPrice.map((order) => (
                  <Box key={order.id} data-order={order.invoiceId ?? order.id} borderTopWidth="1px" pt="2">
                    <Text fontSize="sm" fontWeight="semibold" wordBreak="break-word">{t('qpay.waitingOrder', what(order))}</Text>
                    <Text fontSize="sm" wordBreak="break-word">{order.attentionReason}</Text>
                    <Flex gap="2" mt="1" wrap="wrap">
                      <Button size="xs" colorPalette="green" onClick={() => setConfirming({ action: 'approve', order })} aria-label={t('qpay.orderApproveOf', { invoiceId: order.invoiceId ?? order.id })}>{t('qpay.orderApprove')}</Button>
                      <Button size="xs" variant="outline" colorPalette="red" onClick={() => setConfirming({ action: 'refund', order })} aria-label={t('qpay.orderRefundOf', { invoiceId: order.invoiceId ?? order.id })}>{t('qpay.orderRefund')}</Button>
                    </Flex>
                  </Box>
                ))}
              </Stack>
            </Alert.Description>
          </Alert.Content>
        </Alert.Root>
      )}
      {noKey.length > 0 && (
        <Alert.Root status="warning" data-testid="orders-waiting">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>{t('qpay.waitingTitle', { count: noKey.length })}</Alert.Title>
            <Alert.Description>
              <Stack gap="1">
                <Text>{t('qpay.waitingBody')}</Text>
                {noKey.slice(0, 5).map((order) => (
                  <Text key={order.id} fontSize="sm" wordBreak="break-word">{t('qpay.waitingOrder', what(order))}</Text>
                ))}
                <Text fontWeight="semibold" textDecoration="underline">
                  <Link to="/streaming-keys">{t('qpay.waitingOpen')}</Link>
                </Text>
              </Stack>
            </Alert.Description>
          </Alert.Content>
        </Alert.Root>
      )}
      <ConfirmDialog
        open={confirming !== null}
        title={confirming?.action === 'refund' ? t('qpay.orderRefundTitle') : t('qpay.orderApproveTitle')}
        message={target && t(confirming?.action === 'refund' ? 'qpay.orderRefundMessage' : 'qpay.orderApproveMessage', what(target))}
        confirmLabel={confirming?.action === 'refund' ? t('qpay.orderRefund') : t('qpay.orderApprove')}
        destructive={confirming?.action === 'refund'}
        busy={busy}
        onConfirm={() => {
          if (!confirming || busy) return;
          if (confirming.action === 'approve') approve.mutate(confirming.order.id);
          else refund.mutate(confirming.order.id);
        }}
        onCancel={() => !busy && setConfirming(null)}
      />
    </Stack>
  );
}
