import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api';
import { PAYMENT_POLL_MS, paymentKeys, paymentPaths, type InvoiceView } from './api';

const isPending = (invoice: InvoiceView | undefined) => invoice?.status === 'pending';

/**
 * The invoice, asked for again every 3000 ms while it is pending and never after (paid, cancelled,
 * unknown). A customer back from the bank app sees the outcome at once: while pending, returning
 * to the page asks immediately instead of waiting for the next tick.
 */
export const useInvoiceView = (invoiceId: string) =>
  useQuery<InvoiceView>({
    queryKey: paymentKeys.invoice(invoiceId),
    // Our own path builder: the id comes from the address bar and is encoded, never pasted in.
    queryFn: () => apiRequest<InvoiceView>('GET', paymentPaths.invoice(invoiceId)),
    refetchInterval: (query) => (isPending(query.state.data) ? PAYMENT_POLL_MS : false),
    refetchOnWindowFocus: (query) => (isPending(query.state.data) ? 'always' : false),
  });
