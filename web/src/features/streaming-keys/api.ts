/** The /streaming-keys page's calls. Their shapes are the route contracts' (types only: no zod in the bundle). */
import type {
  assignInvoiceKey, createKeys, createPricing, createStreamingInvoice, emailsWithSlots, expiryReport, extendKey, generateKeyQr, keyStats,
  listAccounts, listKeys, listPricing, listStreamingInvoices, refundStreamingInvoice, ReplyOf, RequestBodyOf, sendTestNotification, ServiceCode,
  setAccountMailboxPassword, slotStats, updateCustomerId, updatePricing,
} from '@bo/proto';
import { apiKey, apiPath, queryString } from '../../lib/paths';

export type { ServiceCode, StreamingInvoiceView, StreamingKeyView, StreamingPricingRow } from '@bo/proto';

export type KeyStats = ReplyOf<typeof keyStats>;
export type SlotStats = ReplyOf<typeof slotStats>;
export type KeyList = ReplyOf<typeof listKeys>;
export type EmailsWithSlots = ReplyOf<typeof emailsWithSlots>;
export type ExpiryReport = ReplyOf<typeof expiryReport>;
export type ExpiryReportKey = ExpiryReport['keys'][number];
export type PricingList = ReplyOf<typeof listPricing>;
export type InvoiceList = ReplyOf<typeof listStreamingInvoices>;
export type NewKeys = RequestBodyOf<typeof createKeys>;
export type NewKeysReply = ReplyOf<typeof createKeys>;
export type Extension = RequestBodyOf<typeof extendKey>;
export type ExtendReply = ReplyOf<typeof extendKey>;
export type CustomerIdReply = ReplyOf<typeof updateCustomerId>;
export type QrReply = ReplyOf<typeof generateKeyQr>;
export type NewInvoice = RequestBodyOf<typeof createStreamingInvoice>;
export type NewInvoiceReply = ReplyOf<typeof createStreamingInvoice>;
export type AssignKeyReply = ReplyOf<typeof assignInvoiceKey>;
export type RefundReply = ReplyOf<typeof refundStreamingInvoice>;
export type NewPrice = RequestBodyOf<typeof createPricing>;
export type NewPriceReply = ReplyOf<typeof createPricing>;
export type PriceUpdateReply = ReplyOf<typeof updatePricing>;
export type TestNotificationReply = ReplyOf<typeof sendTestNotification>;
export type AccountList = ReplyOf<typeof listAccounts>;
export type AccountView = AccountList['data'][number];
export type MailboxPassword = RequestBodyOf<typeof setAccountMailboxPassword>;
export type MailboxPasswordReply = ReplyOf<typeof setAccountMailboxPassword>;

/**
 * Document 3 §1/§9: the five services and how many profiles one account e-mail has. The same list
 * as proto's `streamingServices` (a value, kept out of the bundle with zod); the record type makes
 * the compiler ask for every service code.
 */
export const serviceMaxProfiles: Record<ServiceCode, number> = { NFX: 5, DPS: 7, AMZ: 6, HLU: 7, MAX: 5 };
export const serviceNames: Record<ServiceCode, string> = { NFX: 'Netflix', DPS: 'Disney+', AMZ: 'Amazon Prime Video', HLU: 'Hulu', MAX: 'HBO Max' };
export const serviceCodeList = Object.keys(serviceMaxProfiles) as ServiceCode[];

/** Document 3 §9: durations 1–12 months, expiring soon within 3 days, the 20 newest keys. */
export const MONTH_CHOICES = Array.from({ length: 12 }, (_, index) => index + 1);
export const EXPIRING_SOON_DAYS = 3;
export const RECENT_KEYS = 20;
/** The ManyChat simulator's first subscriber (simulators/manychat/src/seed.ts): a test message reaches someone. */
export const DEFAULT_TEST_USER_ID = '9000001';

/** A key joined with slashes is the GET path, so a resource's first part invalidates its other keys. */
export const keyKeys = {
  stats: apiKey('/api/streaming-keys/stats'),
  slots: apiKey('/api/streaming-keys/slot-stats'),
  list: (search: string) => (search ? apiKey('/api/streaming-keys', queryString({ search })) : apiKey('/api/streaming-keys')),
  all: apiKey('/api/streaming-keys'),
  expiring: apiKey('/api/streaming-keys/expiring-soon', queryString({ days: EXPIRING_SOON_DAYS })),
  recent: apiKey('/api/streaming-keys/recent', queryString({ limit: RECENT_KEYS })),
  emailsWithSlots: (service: ServiceCode) => apiKey('/api/streaming-keys/emails-with-slots', queryString({ service })),
  expiryReport: apiKey('/api/streaming/expiry-report'),
  invoices: apiKey('/api/streaming-invoices'),
  attention: apiKey('/api/streaming-invoices', queryString({ status: 'NEEDS_ATTENTION' })),
  pricing: apiKey('/api/streaming/pricing'),
  accounts: apiKey('/api/streaming-accounts'),
} as const;

/** Everything a change of keys makes stale: the counts, the slots, every search of the list, the expiring and recent lists, the report and the free slots. */
export const keyLists = [keyKeys.stats, keyKeys.slots, keyKeys.all, keyKeys.expiring, keyKeys.recent, keyKeys.expiryReport, apiKey('/api/streaming-keys/emails-with-slots')];

export const keyPaths = {
  keys: '/api/streaming-keys',
  key: (id: number) => apiPath('/api/streaming-keys/:id', { id }),
  extend: '/api/streaming-keys/extend',
  customerId: (id: number) => apiPath('/api/streaming-keys/:id/customer-id', { id }),
  qr: (id: number) => apiPath('/api/streaming-keys/generate-qr/:id', { id }),
  testNotification: '/api/manychat/test-notification',
  invoices: '/api/streaming-invoices',
  assignKey: (id: number) => apiPath('/api/streaming-invoices/:id/assign-key', { id }),
  refund: (id: number) => apiPath('/api/streaming-invoices/:id/refund', { id }),
  pricing: '/api/streaming/pricing',
  price: (id: number) => apiPath('/api/streaming/pricing/:id', { id }),
  mailbox: '/api/streaming-accounts/mailbox',
} as const;
