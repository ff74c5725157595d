import { useQuery } from '@tanstack/react-query';
import { fetchList, qpayKeys, qpayPaths, type InvoiceRecord, type QpaySettings, type WebhookLog } from './api';

export const useQpaySettings = () => useQuery<QpaySettings>({ queryKey: qpayKeys.settings });

export const usePendingInvoices = () => useQuery({ queryKey: qpayKeys.pending, queryFn: () => fetchList<InvoiceRecord>(qpayPaths.pending) });

export const useRecentInvoices = () => useQuery({ queryKey: qpayKeys.recent, queryFn: () => fetchList<InvoiceRecord>(qpayPaths.recent) });

export const useQpayLogs = () => useQuery({ queryKey: qpayKeys.logs, queryFn: () => fetchList<WebhookLog>(qpayPaths.logs) });
