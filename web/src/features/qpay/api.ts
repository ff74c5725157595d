/** The /qpay page's calls. Their shapes are the route contracts' (types only: no zod in the bundle). */
import type {
  approveInvoice, createInvoice, getQpaySettings, pendingInvoices, qpayLogs, recentInvoices, recheckInvoice, ReplyOf, RequestBodyOf, revealWebhookSecret,
  rotateWebhookSecret, saveQpaySettings, testChatPaymentWebhook,
} from '@bo/proto';
import { apiRequest } from '../../lib/api';
import { apiKey, apiPath, type ApiUrl, queryString } from '../../lib/paths';

export type { ChatPaymentRequest, InvoiceRecord, WebhookLog } from '@bo/proto';

export type QpaySettings = ReplyOf<typeof getQpaySettings>;
export type QpaySettingsInput = RequestBodyOf<typeof saveQpaySettings>;
export type SaveSettingsReply = ReplyOf<typeof saveQpaySettings>;
export type TestWebhookReply = ReplyOf<typeof testChatPaymentWebhook>;
export type InvoiceList = ReplyOf<typeof pendingInvoices> & ReplyOf<typeof recentInvoices>;
export type LogList = ReplyOf<typeof qpayLogs>;
export type ApproveReply = ReplyOf<typeof approveInvoice>;
export type RecheckReply = ReplyOf<typeof recheckInvoice>;
export type NewInvoice = RequestBodyOf<typeof createInvoice>;
export type CreateInvoiceReply = ReplyOf<typeof createInvoice>;
export type QpayEnvironment = QpaySettings['qpayEnvironment'];
export type RevealedSecret = ReplyOf<typeof revealWebhookSecret>;
export type RotateSecretReply = ReplyOf<typeof rotateWebhookSecret>;

export const RECENT_INVOICES_SHOWN = 10;
export const LOGS_SHOWN = 100;

/** A key joined with slashes is the GET path, so a resource's first part invalidates its other keys. */
export const qpayKeys = {
  settings: apiKey('/api/qpay/settings'),
  pending: apiKey('/api/qpay/invoices/pending'),
  recent: apiKey('/api/qpay/invoices/recent', queryString({ limit: RECENT_INVOICES_SHOWN })),
  logs: apiKey('/api/qpay/logs', queryString({ limit: LOGS_SHOWN })),
} as const;

export const qpayPaths = {
  settings: '/api/qpay/settings',
  revealWebhookSecret: '/api/qpay/webhook-secret/reveal',
  rotateWebhookSecret: '/api/qpay/webhook-secret/rotate',
  testWebhook: '/api/qpay/test-webhook',
  createInvoice: '/api/qpay/create-invoice',
  pending: '/api/qpay/invoices/pending',
  recent: apiPath('/api/qpay/invoices/recent', {}, { limit: RECENT_INVOICES_SHOWN }),
  logs: apiPath('/api/qpay/logs', {}, { limit: LOGS_SHOWN }),
  recheck: (invoiceId: string) => apiPath('/api/qpay/invoices/:invoiceId/check', { invoiceId }),
  approve: (id: string) => apiPath('/api/admin/invoices/:id/approve', { id }),
  remove: (id: string) => apiPath('/api/admin/invoices/:id', { id }),
  // The public payment page (a page of the app, not an API route).
  paymentPage: (invoiceId: string) => `/payment/${encodeURIComponent(invoiceId)}`,
} as const;

/**
 * Document 3 §7: "An HTML response to a bank-payment list call is treated as empty data" (a proxy
 * or the web app's own index.html answering in the service's place). Anything not a `{ data: [] }`
 * reply is such a page: it reads as an empty list, never as a crash of the tab.
 */
export function listOrEmpty<Item>(reply: unknown): { data: Item[] } {
  const data = (reply as { data?: unknown } | null)?.data;
  return typeof reply === 'object' && reply !== null && Array.isArray(data) ? { data: data as Item[] } : { data: [] };
}

/** The whole chat webhook secret, asked for at the moment it is copied (never kept on the page). */
export const fetchWebhookSecret = async () => (await apiRequest<RevealedSecret>('POST', qpayPaths.revealWebhookSecret)).secret;

export const fetchList = async <Item>(path: ApiUrl) => listOrEmpty<Item>(await apiRequest('GET', path));
