import { z } from 'zod';
import { defineRoute, redirectReply, successReply } from './contract';
import { idField, idParam, wholeNumber, wholeNumberFromText } from './fields';
import {
  EMAIL_MAX, EXPIRING_SOON_DAYS, MONTHS_MAX, MONTHS_MIN, RECENT_KEYS, attentionKinds, notificationStatuses, serviceCodeSchema, serviceCodes, streamingInvoiceStatuses, streamingServices,
} from '../money';

const category = 'Streaming keys';
const MOST_PROFILES = Math.max(...streamingServices.map((service) => service.maxProfiles));
const keyIdParams = z.object({ keyId: idParam });
const idParams = z.object({ id: idParam });

/** A sold key as notifications needs it for a reminder. */
export const expiringKeySchema = z.object({
  keyId: z.number().int(),
  key: z.string(),
  service: serviceCodeSchema,
  accountEmail: z.string(),
  profileNumber: z.number().int(),
  expiresAt: z.string(),
  customerId: z.string(),
  isOptedOut: z.boolean(),
});
export type ExpiringKey = z.infer<typeof expiringKeySchema>;

/** Everything a key-delivery message says, the account's sign-in read now (ADR 14). */
export const keyDeliverySchema = z.object({
  keyId: z.number().int(),
  key: z.string(),
  service: serviceCodeSchema,
  serviceName: z.string(),
  accountEmail: z.string(),
  /** The shared account's password, decrypted for this message only; null when none is stored. */
  accountPassword: z.string().nullable(),
  profileNumber: z.number().int(),
  expiresAt: z.string(),
  customerId: z.string().nullable(),
  isOptedOut: z.boolean(),
});
export type KeyDelivery = z.infer<typeof keyDeliverySchema>;

export const expiringKeys = defineRoute({
  owner: 'streaming-keys', method: 'GET', path: '/internal/streaming-keys/expiring', access: 'internal', callers: ['notifications'], category,
  query: z.object({ days: z.coerce.number().int().min(1).max(30) }),
  reply: z.object({ data: z.array(expiringKeySchema) }),
  summary: 'Active keys held by a chat subscriber that expire within the next `days` days (not yet expired)',
  example: { query: { days: 3 }, reply: { data: [{ keyId: 41, key: 'SK-7Q2M4P9X3K-NFX', service: 'NFX', accountEmail: 'nfx.account1@example.mn', profileNumber: 3, expiresAt: '2026-11-25T08:00:00.000Z', customerId: '1234567', isOptedOut: false }] } },
});

export const keyDelivery = defineRoute({
  owner: 'streaming-keys', method: 'GET', path: '/internal/streaming-keys/keys/:keyId/delivery', access: 'internal', callers: ['notifications'], category,
  params: keyIdParams,
  reply: keyDeliverySchema,
  summary: "A key with its account's current sign-in details, for the delivery message",
  example: {
    params: { keyId: 41 },
    reply: { keyId: 41, key: 'SK-7Q2M4P9X3K-NFX', service: 'NFX', serviceName: 'Netflix', accountEmail: 'nfx.account1@example.mn', accountPassword: 'Shared-Pass-2026', profileNumber: 3, expiresAt: '2026-12-23T08:00:00.000Z', customerId: '1234567', isOptedOut: false },
  },
});

export const createRenewalSession = defineRoute({
  owner: 'streaming-keys', method: 'POST', path: '/internal/streaming-keys/renewals', access: 'internal', callers: ['notifications'], category,
  body: z.object({ keyId: idField(), months: z.number().int().min(MONTHS_MIN).max(MONTHS_MAX).default(1) }).strict(),
  reply: z.object({ sessionId: z.string(), keyId: z.number().int(), months: z.number().int(), amount: z.number().int().nullable(), path: z.string(), expiresAt: z.string() }),
  summary: 'A renewal session for a key: its link (path under the public address) makes the renewal invoice when opened',
  example: { body: { keyId: 41, months: 1 }, reply: { sessionId: 'rs_4f9c2a7d1e8b3c6a', keyId: 41, months: 1, amount: 35000, path: '/api/streaming/renew/rs_4f9c2a7d1e8b3c6a', expiresAt: '2026-11-30T08:00:00.000Z' } },
});

export const listedStreamingPrice = defineRoute({
  owner: 'streaming-keys', method: 'GET', path: '/internal/streaming-keys/prices/:service/:months', access: 'internal', callers: ['payments'], category,
  params: z.object({ service: serviceCodeSchema, months: z.coerce.number().int().min(MONTHS_MIN).max(MONTHS_MAX) }),
  reply: z.object({ service: serviceCodeSchema, months: z.number().int(), name: z.string(), price: z.number().int() }),
  summary: "The price list's active price of a service for a number of months (404 when none is listed): what payments charges a chat order",
  example: { params: { service: 'NFX', months: 12 }, reply: { service: 'NFX', months: 12, name: 'Netflix 12 сар', price: 120000 } },
});

/** The internal routes other services call; the admin and public routes follow below. */
export const streamingKeysInternalRoutes = [expiringKeys, keyDelivery, createRenewalSession, listedStreamingPrice];

// ---------------------------------------------------------------------------------------------
// Admin (/streaming-keys page) and public routes (document 3 §7 "Streaming admin").

/** Document 3 §4: Expired if the expiry is past, else Active if isActive is 1, else Used. */
export const keyDisplayStatuses = ['Active', 'Expired', 'Used'] as const;

/** A key as the admin page shows it. */
export const streamingKeyViewSchema = z.object({
  id: z.number().int(),
  /** The account e-mail the key is a profile of. */
  email: z.string(),
  key: z.string(),
  service: serviceCodeSchema,
  serviceName: z.string(),
  profileNumber: z.number().int(),
  expiresAt: z.string(),
  isActive: z.number().int(),
  status: z.enum(keyDisplayStatuses),
  /** The chat subscriber holding it; null when none. */
  customerId: z.string().nullable(),
  /** Taken by a sale or given to a customer (not in the free pool). */
  held: z.boolean(),
  assignedAt: z.string().nullable(),
  buyerEmail: z.string().nullable(),
  streamingInvoiceId: z.number().int().nullable(),
  lastNotificationSent: z.string().nullable(),
  /** null means pending. */
  notificationStatus: z.enum(notificationStatuses).nullable(),
  /** Why the reminder failed or is held; null otherwise. */
  notificationError: z.string().nullable(),
  notificationAttempts: z.number().int(),
  isOptedOut: z.boolean(),
  createdAt: z.string(),
});
export type StreamingKeyView = z.infer<typeof streamingKeyViewSchema>;

export const streamingPricingSchema = z.object({
  id: z.number().int(),
  service: serviceCodeSchema,
  serviceName: z.string(),
  duration: z.number().int(),
  price: z.number().int(),
  isActive: z.boolean(),
});
export type StreamingPricingRow = z.infer<typeof streamingPricingSchema>;

export const streamingInvoiceViewSchema = z.object({
  id: z.number().int(),
  /** payments' invoice (INV-…); null when payments could not make it. */
  invoiceId: z.string().nullable(),
  email: z.string().nullable(),
  serviceCode: serviceCodeSchema,
  serviceName: z.string(),
  /** Months. */
  duration: z.number().int(),
  amount: z.number().int(),
  status: z.enum(streamingInvoiceStatuses),
  /** Why a paid order has no key yet (NEEDS_ATTENTION) or why it could not be made (FAILED). */
  attentionReason: z.string().nullable(),
  /** What a NEEDS_ATTENTION order waits for: a free key, or an admin's word on a payment below its price (approve or refund). */
  attentionKind: z.enum(attentionKinds).nullable(),
  /** The admin who let a payment below the price have its key. */
  approvedBy: z.string().nullable(),
  /** A refunded order: when and by whom (REFUNDED). */
  refundedAt: z.string().nullable(),
  refundedBy: z.string().nullable(),
  paymentUrl: z.string().nullable(),
  paidAt: z.string().nullable(),
  keyGenerated: z.boolean(),
  keyId: z.number().int().nullable(),
  key: z.string().nullable(),
  customerName: z.string().nullable(),
  phoneNumber: z.string().nullable(),
  subscriberId: z.string().nullable(),
  /** admin (made on this page) or chat (an order paid through the chat's payment link). */
  platform: z.string(),
  productName: z.string().nullable(),
  createdAt: z.string(),
});
export type StreamingInvoiceView = z.infer<typeof streamingInvoiceViewSchema>;

export const streamingAccountViewSchema = z.object({
  email: z.string(),
  service: serviceCodeSchema,
  /** Whether a sign-in password is stored, and its masked form (never the whole). */
  passwordSet: z.boolean(),
  passwordMasked: z.string(),
  /** Why the stored password cannot be opened (sealed with a key this server does not have), or null. */
  passwordUnreadable: z.string().nullable(),
  passwordUpdatedAt: z.string().nullable(),
  /** Whether the password of the account e-mail's own mailbox is stored (for customers' code fetch, ADR 15), masked. */
  mailboxPasswordSet: z.boolean(),
  mailboxPasswordMasked: z.string(),
  mailboxPasswordUnreadable: z.string().nullable(),
});

/** The expiry report (document 3 §3). */
export const expiryReportSchema = z.object({
  total: z.number().int(),
  sent: z.number().int(),
  failed: z.number().int(),
  optedOut: z.number().int(),
  held: z.number().int(),
  pending: z.number().int(),
  keys: z.array(z.object({
    id: z.number().int(),
    serviceName: z.string(),
    email: z.string(),
    key: z.string(),
    expiresAt: z.string(),
    notificationStatus: z.enum(notificationStatuses).nullable(),
    notificationError: z.string().nullable(),
    notificationAttempts: z.number().int(),
  })),
});

/** Empty text counts as not sent, so the form's blank fields read as missing. */
const blankAsMissing = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const emailField = z.string().trim().toLowerCase().max(EMAIL_MAX, `Email must be at most ${EMAIL_MAX} characters`).pipe(z.email('Invalid email address'));
const monthsField = wholeNumber('Months must be a whole number').min(MONTHS_MIN, 'Duration must be at least 1 month').max(MONTHS_MAX, 'Duration must not exceed 12 months');
/** A calendar date or a timestamp, as text. */
const dateField = z.string().trim().refine((text) => !Number.isNaN(Date.parse(text)), 'Invalid date');
const passwordField = z.string().min(1, 'Password is required').max(200);
/** A look-ahead window in days; the page's default is the expiring-soon window. */
const daysQuery = z.object({ days: z.coerce.number().int().min(1).max(365).default(EXPIRING_SOON_DAYS) });
const priceField = wholeNumber('Price must be a whole number').min(0, 'Price must be at least 0').max(100_000_000);
const listOf = <S extends z.ZodType>(item: S) => z.object({ success: z.boolean(), data: z.array(item) });

const exampleKey: StreamingKeyView = {
  id: 41, email: 'nfx.account1@example.mn', key: 'SK-7Q2M4P9X3K-NFX', service: 'NFX', serviceName: 'Netflix', profileNumber: 3,
  expiresAt: '2026-12-23T08:00:00.000Z', isActive: 1, status: 'Active', customerId: '1234567', held: true, assignedAt: '2026-11-23T08:00:00.000Z',
  buyerEmail: 'bat@example.mn', streamingInvoiceId: 12, lastNotificationSent: null, notificationStatus: null, notificationError: null, notificationAttempts: 0, isOptedOut: false,
  createdAt: '2026-11-20T08:00:00.000Z',
};
const examplePricing: StreamingPricingRow = { id: 1, service: 'NFX', serviceName: 'Netflix', duration: 1, price: 35000, isActive: true };
const exampleInvoice: StreamingInvoiceView = {
  id: 12, invoiceId: 'INV-7K3Q9X2M4P', email: 'bat@example.mn', serviceCode: 'NFX', serviceName: 'Netflix', duration: 1, amount: 35000, status: 'PENDING',
  attentionReason: null, attentionKind: null, approvedBy: null, refundedAt: null, refundedBy: null, paymentUrl: 'https://shop.example.mn/payment/INV-7K3Q9X2M4P', paidAt: null, keyGenerated: false, keyId: null, key: null,
  customerName: 'Бат-Эрдэнэ', phoneNumber: '99112233', subscriberId: '1234567', platform: 'admin', productName: 'Netflix 1 сар', createdAt: '2026-11-23T08:00:00.000Z',
};

export const keyStats = defineRoute({
  owner: 'streaming-keys', method: 'GET', path: '/api/streaming-keys/stats', access: 'admin', category,
  reply: z.object({ totalKeys: z.number().int(), activeKeys: z.number().int(), expired: z.number().int(), expiringSoon: z.number().int() }),
  summary: `Key counts: all, active (not expired), expired, expiring within ${EXPIRING_SOON_DAYS} days`,
  example: { reply: { totalKeys: 40, activeKeys: 31, expired: 9, expiringSoon: 4 } },
});

export const slotStats = defineRoute({
  owner: 'streaming-keys', method: 'GET', path: '/api/streaming-keys/slot-stats', access: 'admin', category,
  reply: z.object({
    success: z.boolean(),
    data: z.object({ services: z.record(z.enum(serviceCodes), z.object({ serviceName: z.string(), occupiedSlots: z.number().int(), totalSlots: z.number().int() })) }),
  }),
  summary: 'Per service: keys held by customers (occupied) out of all keys in the pool',
  example: {
    reply: {
      success: true,
      data: {
        services: {
          NFX: { serviceName: 'Netflix', occupiedSlots: 7, totalSlots: 10 }, DPS: { serviceName: 'Disney+', occupiedSlots: 0, totalSlots: 7 },
          AMZ: { serviceName: 'Amazon Prime Video', occupiedSlots: 2, totalSlots: 6 }, HLU: { serviceName: 'Hulu', occupiedSlots: 0, totalSlots: 0 },
          MAX: { serviceName: 'HBO Max', occupiedSlots: 1, totalSlots: 5 },
        },
      },
    },
  },
});

export const listKeys = defineRoute({
  owner: 'streaming-keys', method: 'GET', path: '/api/streaming-keys', access: 'admin', category,
  query: z.object({ search: z.string().trim().max(EMAIL_MAX).optional(), service: serviceCodeSchema.optional() }),
  reply: listOf(streamingKeyViewSchema),
  summary: 'Every key (optionally those whose account e-mail or key contains `search`), by account e-mail, service and profile',
  example: { query: { search: 'nfx.account1' }, reply: { success: true, data: [exampleKey] } },
});

export const expiringSoonKeys = defineRoute({
  owner: 'streaming-keys', method: 'GET', path: '/api/streaming-keys/expiring-soon', access: 'admin', category,
  query: daysQuery,
  reply: listOf(streamingKeyViewSchema),
  summary: 'Keys not yet expired that expire within `days` days, soonest first',
  example: { query: { days: 3 }, reply: { success: true, data: [exampleKey] } },
});

export const emailsWithSlots = defineRoute({
  owner: 'streaming-keys', method: 'GET', path: '/api/streaming-keys/emails-with-slots', access: 'admin', category,
  query: z.object({ service: serviceCodeSchema }),
  reply: listOf(z.object({ email: z.string(), availableSlots: z.number().int() })),
  summary: "The service's account e-mails and how many profiles of each have no key yet",
  example: { query: { service: 'NFX' }, reply: { success: true, data: [{ email: 'nfx.account1@example.mn', availableSlots: 2 }] } },
});

export const availableProfiles = defineRoute({
  owner: 'streaming-keys', method: 'GET', path: '/api/streaming-keys/available-profiles/:email/:service', access: 'admin', category,
  params: z.object({ email: emailField, service: serviceCodeSchema }),
  reply: z.object({ success: z.boolean(), data: z.array(z.number().int()) }),
  summary: 'The profile numbers of an account e-mail that have no key yet',
  example: { params: { email: 'nfx.account1@example.mn', service: 'NFX' }, reply: { success: true, data: [4, 5] } },
});

export const expiryReport = defineRoute({
  owner: 'streaming-keys', method: 'GET', path: '/api/streaming/expiry-report', access: 'admin', category,
  query: daysQuery,
  reply: expiryReportSchema,
  summary: "Keys held by customers that expire within `days` days, with their reminder's status and attempts",
  example: {
    query: { days: 3 },
    reply: {
      total: 2, sent: 1, failed: 0, optedOut: 0, held: 1, pending: 0,
      keys: [
        { id: 41, serviceName: 'Netflix', email: 'nfx.account1@example.mn', key: 'SK-7Q2M4P9X3K-NFX', expiresAt: '2026-11-25T08:00:00.000Z', notificationStatus: 'sent', notificationError: null, notificationAttempts: 1 },
        {
          id: 42, serviceName: 'Netflix', email: 'nfx.account1@example.mn', key: 'SK-9D4F6H8J2L-NFX', expiresAt: '2026-11-25T08:00:00.000Z', notificationStatus: 'held',
          notificationError: 'Outside the 24-hour window and no utility template is set for renewal reminders (/manychat-admin): held until the subscriber writes', notificationAttempts: 0,
        },
      ],
    },
  },
});

export const recentKeys = defineRoute({
  owner: 'streaming-keys', method: 'GET', path: '/api/streaming-keys/recent', access: 'admin', category,
  query: z.object({ limit: z.coerce.number().int().min(1).max(200).default(RECENT_KEYS) }),
  reply: listOf(streamingKeyViewSchema),
  summary: 'The most recently created keys, newest first',
  example: { query: { limit: 20 }, reply: { success: true, data: [exampleKey] } },
});

export const extendKey = defineRoute({
  owner: 'streaming-keys', method: 'POST', path: '/api/streaming-keys/extend', access: 'admin', category,
  body: z.object({
    keyId: idField('Please enter a key'),
    months: z.preprocess(blankAsMissing, monthsField.optional()),
    expiresAt: z.preprocess(blankAsMissing, dateField.optional()),
  }).strict(),
  reply: z.object({ success: z.boolean(), data: streamingKeyViewSchema, previousExpiresAt: z.string() }),
  summary: 'Move a key\'s expiry later: by `months` from the later of now and its expiry, or to the date `expiresAt` (one of the two)',
  example: { body: { keyId: 41, months: 1 }, reply: { success: true, data: { ...exampleKey, expiresAt: '2027-01-23T08:00:00.000Z' }, previousExpiresAt: '2026-12-23T08:00:00.000Z' } },
});

export const createKeys = defineRoute({
  owner: 'streaming-keys', method: 'POST', path: '/api/streaming-keys', access: 'admin', category,
  body: z.object({
    service: z.preprocess(blankAsMissing, serviceCodeSchema.optional()),
    email: z.preprocess(blankAsMissing, emailField.optional()),
    /** The expiry: a number of months from today, or a date not before today. */
    months: z.preprocess(blankAsMissing, monthsField.optional()),
    expiresAt: z.preprocess(blankAsMissing, dateField.optional()),
    /** How many profiles of the account get a key (the lowest free ones); 1 when left out. */
    profiles: z.preprocess(
      blankAsMissing,
      // The service's own maximum is checked with the service; no service has more profiles than this.
      wholeNumber('Profiles must be a whole number').min(1, 'Profiles must be at least 1').max(MOST_PROFILES, `Profiles must be at most ${MOST_PROFILES}`).optional(),
    ),
    /** The account's shared sign-in password: stored (sealed) or replaced when given. */
    password: z.preprocess(blankAsMissing, passwordField.optional()),
  }).strict(),
  reply: z.object({ success: z.boolean(), data: z.object({ keys: z.array(streamingKeyViewSchema) }) }),
  summary: 'Add keys to the pool: one per free profile of an account e-mail, up to the service\'s profile count',
  example: { body: { service: 'NFX', email: 'nfx.account1@example.mn', months: 1, profiles: 1, password: 'Shared-Pass-2026' }, reply: { success: true, data: { keys: [{ ...exampleKey, customerId: null, held: false, assignedAt: null, buyerEmail: null, streamingInvoiceId: null }] } } },
});

export const deleteKey = defineRoute({
  owner: 'streaming-keys', method: 'DELETE', path: '/api/streaming-keys/:id', access: 'admin', category,
  params: idParams,
  reply: successReply,
  summary: 'Delete a key (its profile becomes free for a new key)',
  example: { params: { id: 41 }, reply: { success: true } },
});

export const updateCustomerId = defineRoute({
  owner: 'streaming-keys', method: 'PATCH', path: '/api/streaming-keys/:id/customer-id', access: 'admin', category,
  params: idParams,
  body: z.object({
    customerId: z.preprocess((v) => (typeof v === 'number' ? String(v) : typeof v === 'string' && v.trim() === '' ? null : v), z.string().trim().max(64).nullable()),
  }).strict(),
  reply: z.object({ success: z.boolean(), data: streamingKeyViewSchema }),
  summary: 'Set (or clear, when blank) the chat subscriber id holding a key',
  example: { params: { id: 41 }, body: { customerId: '1234567' }, reply: { success: true, data: exampleKey } },
});

export const generateKeyQr = defineRoute({
  owner: 'streaming-keys', method: 'POST', path: '/api/streaming-keys/generate-qr/:id', access: 'admin', category,
  params: idParams,
  reply: z.object({ success: z.boolean(), data: z.object({ keyId: z.number().int(), qrCodeData: z.string(), qrCodeUrl: z.string().nullable(), generatedAt: z.string() }) }),
  summary: "A QR code (PNG data: URL) of the key's details: service, account e-mail, profile, key, expiry",
  example: { params: { id: 41 }, reply: { success: true, data: { keyId: 41, qrCodeData: 'data:image/png;base64,iVBORw0KGgo=', qrCodeUrl: null, generatedAt: '2026-11-23T08:00:00.000Z' } } },
});

export const listStreamingInvoices = defineRoute({
  owner: 'streaming-keys', method: 'GET', path: '/api/streaming-invoices', access: 'admin', category,
  query: z.object({ status: z.enum(streamingInvoiceStatuses).optional() }),
  reply: listOf(streamingInvoiceViewSchema),
  summary: 'Streaming orders, newest first (optionally of one status; NEEDS_ATTENTION: paid, waiting for a key)',
  example: { query: { status: 'PENDING' }, reply: { success: true, data: [exampleInvoice] } },
});

export const createStreamingInvoice = defineRoute({
  owner: 'streaming-keys', method: 'POST', path: '/api/streaming-invoices', access: 'admin', category,
  body: z.object({
    email: emailField,
    service: serviceCodeSchema,
    /** Months of the key. */
    duration: wholeNumberFromText(
      z.number().int('Duration must be a whole number of months').min(1, 'Duration must be at least 1 day').max(MONTHS_MAX, 'Duration must not exceed 12 months'),
      'Duration must be a whole number of months',
      'the order form sends its fields as typed',
    ),
    /** MNT; the price list's price of service and duration when left out. */
    amount: z.preprocess(
      blankAsMissing,
      wholeNumberFromText(z.number().int('Amount must be a whole number').min(0, 'Amount must be at least 0').max(100_000_000), 'Amount must be a whole number', 'the order form sends its fields as typed').optional(),
    ),
    customerName: z.preprocess(blankAsMissing, z.string().trim().max(255).optional()),
    phoneNumber: z.preprocess(blankAsMissing, z.string().trim().max(40).optional()),
    /** The chat subscriber who gets the key in the chat once paid. */
    subscriberId: z.preprocess((v) => (typeof v === 'number' ? String(v) : blankAsMissing(v)), z.string().trim().max(64).optional()),
  }).strict(),
  reply: z.object({ success: z.boolean(), data: streamingInvoiceViewSchema }),
  summary: 'Make a streaming order and its QPay invoice (through payments); answers its payment page link',
  example: { body: { email: 'bat@example.mn', service: 'NFX', duration: 1, customerName: 'Бат-Эрдэнэ', phoneNumber: '99112233', subscriberId: '1234567' }, reply: { success: true, data: exampleInvoice } },
});

export const assignInvoiceKey = defineRoute({
  owner: 'streaming-keys', method: 'POST', path: '/api/streaming-invoices/:id/assign-key', access: 'admin', category,
  params: idParams,
  reply: z.object({ success: z.boolean(), data: z.object({ invoice: streamingInvoiceViewSchema, key: streamingKeyViewSchema }) }),
  summary: "Give a paid order that is waiting for a key (NEEDS_ATTENTION) a free key of its service, once; for a payment below the order's price this is the admin's approval, recorded with who",
  example: { params: { id: 12 }, reply: { success: true, data: { invoice: { ...exampleInvoice, status: 'PAID', keyGenerated: true, keyId: 41, key: 'SK-7Q2M4P9X3K-NFX', paidAt: '2026-11-23T08:05:00.000Z' }, key: exampleKey } } },
});

export const refundStreamingInvoice = defineRoute({
  owner: 'streaming-keys', method: 'POST', path: '/api/streaming-invoices/:id/refund', access: 'admin', category,
  params: idParams,
  reply: z.object({ success: z.boolean(), data: streamingInvoiceViewSchema, message: z.string() }),
  summary: 'Give a paid order that waits for an admin (NEEDS_ATTENTION) its money back and close it (REFUNDED), with who and when; QPay refunds it where it can',
  example: {
    params: { id: 12 },
    reply: {
      success: true,
      data: { ...exampleInvoice, status: 'REFUNDED', paidAt: '2026-11-23T08:05:00.000Z', refundedAt: '2026-11-23T09:00:00.000Z', refundedBy: 'admin@example.mn' },
      message: 'QPay cannot return a bank transfer (PAYMENT_SETTLED): recorded as returned by hand by admin@example.mn',
    },
  },
});

export const listPricing = defineRoute({
  owner: 'streaming-keys', method: 'GET', path: '/api/streaming/pricing', access: 'admin', category,
  reply: listOf(streamingPricingSchema),
  summary: 'The streaming price list: service, name, months and price in MNT',
  example: { reply: { success: true, data: [examplePricing] } },
});

export const createPricing = defineRoute({
  owner: 'streaming-keys', method: 'POST', path: '/api/streaming/pricing', access: 'admin', category,
  body: z.object({
    service: serviceCodeSchema,
    serviceName: z.string({ error: 'Service name is required' }).trim().min(1, 'Service name is required').max(100),
    duration: wholeNumber('Duration must be a whole number of months').min(1, 'Duration must be at least 1 month').max(12, 'Duration must not exceed 12 months'),
    price: priceField,
    isActive: z.boolean().optional(),
  }).strict(),
  reply: z.object({ success: z.boolean(), data: streamingPricingSchema }),
  summary: 'Add a price (one per service and duration)',
  example: { body: { service: 'NFX', serviceName: 'Netflix', duration: 1, price: 35000 }, reply: { success: true, data: examplePricing } },
});

export const updatePricing = defineRoute({
  owner: 'streaming-keys', method: 'PUT', path: '/api/streaming/pricing/:id', access: 'admin', category,
  params: idParams,
  body: z.object({
    price: priceField,
    isActive: z.boolean().optional(),
  }).strict(),
  reply: z.object({ success: z.boolean(), data: streamingPricingSchema }),
  summary: 'Change the price of one row',
  example: { params: { id: 1 }, body: { price: 32000 }, reply: { success: true, data: { ...examplePricing, price: 32000 } } },
});

export const deletePricing = defineRoute({
  owner: 'streaming-keys', method: 'DELETE', path: '/api/streaming/pricing/:id', access: 'admin', category,
  params: idParams,
  reply: successReply,
  summary: 'Delete one price row',
  example: { params: { id: 1 }, reply: { success: true } },
});

export const listAccounts = defineRoute({
  owner: 'streaming-keys', method: 'GET', path: '/api/streaming-accounts', access: 'admin', category,
  query: z.object({ service: serviceCodeSchema.optional() }),
  reply: listOf(streamingAccountViewSchema),
  summary: 'The account e-mails keys are profiles of, with whether a sign-in password is stored (masked)',
  example: { query: { service: 'NFX' }, reply: { success: true, data: [{ email: 'nfx.account1@example.mn', service: 'NFX', passwordSet: true, passwordMasked: '••••2026', passwordUnreadable: null, passwordUpdatedAt: '2026-11-23T08:00:00.000Z', mailboxPasswordSet: false, mailboxPasswordMasked: '', mailboxPasswordUnreadable: null }] } },
});

export const setAccountPassword = defineRoute({
  owner: 'streaming-keys', method: 'PUT', path: '/api/streaming-accounts/password', access: 'admin', category,
  body: z.object({ service: serviceCodeSchema, email: emailField, password: passwordField }).strict(),
  reply: z.object({ success: z.boolean(), data: streamingAccountViewSchema }),
  summary: "Set the shared sign-in password of an account e-mail (sealed; every later key message sends the new one)",
  example: { body: { service: 'NFX', email: 'nfx.account1@example.mn', password: 'Shared-Pass-2026' }, reply: { success: true, data: { email: 'nfx.account1@example.mn', service: 'NFX', passwordSet: true, passwordMasked: '••••2026', passwordUnreadable: null, passwordUpdatedAt: '2026-11-23T08:00:00.000Z', mailboxPasswordSet: false, mailboxPasswordMasked: '', mailboxPasswordUnreadable: null } } },
});

export const setAccountMailboxPassword = defineRoute({
  owner: 'streaming-keys', method: 'PUT', path: '/api/streaming-accounts/mailbox', access: 'admin', category,
  body: z.object({ service: serviceCodeSchema, email: emailField, mailboxPassword: passwordField }).strict(),
  reply: z.object({ success: z.boolean(), data: streamingAccountViewSchema }),
  summary: "Set the IMAP password of an account e-mail's mailbox (sealed), which customers' code fetches read",
  example: { body: { service: 'NFX', email: 'nfx.account1@example.mn', mailboxPassword: 'Mailbox-Pass-2026' }, reply: { success: true, data: { email: 'nfx.account1@example.mn', service: 'NFX', passwordSet: true, passwordMasked: '••••2026', passwordUnreadable: null, passwordUpdatedAt: '2026-11-23T08:00:00.000Z', mailboxPasswordSet: true, mailboxPasswordMasked: '••••2026', mailboxPasswordUnreadable: null } } },
});

export const openRenewal = defineRoute({
  owner: 'streaming-keys', method: 'GET', path: '/api/streaming/renew/:sessionId', access: 'public', category,
  replyKind: 'redirect',
  params: z.object({ sessionId: z.string().trim().min(1).max(100) }),
  reply: redirectReply,
  summary: "A renewal reminder's link: makes (or reuses) the renewal invoice and redirects to its payment page",
  example: { params: { sessionId: 'rs_4f9c2a7d1e8b3c6a' }, reply: undefined },
});

export const streamingKeysAdminRoutes = [
  keyStats, slotStats, listKeys, expiringSoonKeys, emailsWithSlots, availableProfiles, expiryReport, recentKeys, extendKey, createKeys, deleteKey,
  updateCustomerId, generateKeyQr, listStreamingInvoices, createStreamingInvoice, assignInvoiceKey, refundStreamingInvoice, listPricing, createPricing, updatePricing,
  deletePricing, listAccounts, setAccountPassword, setAccountMailboxPassword,
];

export const streamingKeysRoutes = [...streamingKeysInternalRoutes, ...streamingKeysAdminRoutes, openRenewal];
