import { Badge, type BadgeProps } from '@chakra-ui/react';
import { useTexts, type MessageKey } from '../../i18n';

/** Every status document 3 §4 shows in the UI; payments itself uses pending, paid and cancelled. */
export type ShownInvoiceStatus = 'pending' | 'paid' | 'failed' | 'cancelled' | 'success';

const look: Record<ShownInvoiceStatus, { label: MessageKey; palette: string }> = {
  pending: { label: 'payment.status.pending', palette: 'yellow' },
  paid: { label: 'payment.status.paid', palette: 'green' },
  success: { label: 'payment.status.success', palette: 'green' },
  failed: { label: 'payment.status.failed', palette: 'red' },
  cancelled: { label: 'payment.status.cancelled', palette: 'gray' },
};

/** An invoice's status as a coloured badge (the payment page and the /qpay lists). */
export function InvoiceStatusBadge({ status, ...rest }: { status: ShownInvoiceStatus } & BadgeProps) {
  const { t } = useTexts();
  return (
    <Badge colorPalette={look[status].palette} data-status={status} {...rest}>
      {t(look[status].label)}
    </Badge>
  );
}
