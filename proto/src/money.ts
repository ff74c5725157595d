import { z } from 'zod';

/**
 * The five streaming services of document 3 §1/§9 and how many profiles one account e-mail has.
 * A key is one profile slot of one account.
 */
export const streamingServices = [
  { code: 'NFX', name: 'Netflix', maxProfiles: 5 },
  { code: 'DPS', name: 'Disney+', maxProfiles: 7 },
  { code: 'AMZ', name: 'Amazon Prime Video', maxProfiles: 6 },
  { code: 'HLU', name: 'Hulu', maxProfiles: 7 },
  { code: 'MAX', name: 'HBO Max', maxProfiles: 5 },
] as const;
export const serviceCodes = ['NFX', 'DPS', 'AMZ', 'HLU', 'MAX'] as const;
export type ServiceCode = (typeof serviceCodes)[number];
export const serviceCodeSchema = z.enum(serviceCodes, { error: 'Service is required' });
export const streamingServiceOf = (code: ServiceCode) => streamingServices.find((service) => service.code === code)!;

/** Document 3 §9: a fixed prefix, a random uppercase alphanumeric part, the service code as suffix. */
export const KEY_PREFIX = 'SK';
export const keyPattern = /^SK-[A-Z0-9]{10}-(NFX|DPS|AMZ|HLU|MAX)$/;
/** Field lengths of document 3 §9. */
export const KEY_MAX = 30;
export const EMAIL_MAX = 120;
/** Duration choices, in months (document 3 §9). */
export const MONTHS_MIN = 1;
export const MONTHS_MAX = 12;
export const EXPIRING_SOON_DAYS = 3;
export const RECENT_KEYS = 20;
export const PAYMENT_POLL_MS = 3000;

/**
 * What an invoice pays for (ADR 14). The paid event carries it, so the consumer needs nothing else:
 * - streaming: a new key of `serviceCode` for `months`; `streamingInvoiceId` when streaming-keys made the order;
 * - renewal: `months` more on the key `keyId` (a renewal session's invoice);
 * - custom: anything else (a custom payment, a chat order of a product that is not a key).
 */
export const invoiceOrderSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('streaming'),
    serviceCode: serviceCodeSchema,
    months: z.number().int().min(MONTHS_MIN).max(MONTHS_MAX),
    email: z.string().max(EMAIL_MAX).nullable(),
    streamingInvoiceId: z.number().int().nullable(),
  }),
  z.object({
    kind: z.literal('renewal'),
    keyId: z.number().int(),
    months: z.number().int().min(MONTHS_MIN).max(MONTHS_MAX),
    renewalSessionId: z.string().nullable(),
  }),
  z.object({ kind: z.literal('custom'), productName: z.string().max(255) }),
]);
export type InvoiceOrder = z.infer<typeof invoiceOrderSchema>;

/** Who is paying, as far as we know: the chat subscriber (ManyChat user id) is how we reach them. */
export const payerSchema = z.object({
  name: z.string().max(255).nullable(),
  email: z.string().max(EMAIL_MAX).nullable(),
  phone: z.string().max(40).nullable(),
  subscriberId: z.string().max(64).nullable(),
});
export type Payer = z.infer<typeof payerSchema>;

/** Invoice statuses shown in the UI (document 3 §4). payments uses pending, paid and cancelled. */
export const invoiceStatuses = ['pending', 'paid', 'failed', 'cancelled', 'success'] as const;
export const qpayInvoiceStatuses = ['pending', 'paid', 'cancelled'] as const;
export const streamingInvoiceStatuses = ['PENDING', 'PAID', 'NEEDS_ATTENTION', 'CANCELLED', 'FAILED', 'REFUNDED'] as const;
/**
 * Why a paid streaming order waits for an admin (NEEDS_ATTENTION): no free key of its service, or
 * a paid amount below the order's price (or no price to check it against).
 */
export const attentionKinds = ['no_free_key', 'price_check'] as const;
/** How a refund was made: by QPay's refund call, or by the admin returning the money themselves (QPay cannot return a bank transfer). */
export const refundMethods = ['qpay', 'by_hand'] as const;

/** A whole number of tugrik as people read it: 120,000₮. */
export const formatTugrik = (amount: number) => `${amount.toLocaleString('en-US')}₮`;
/**
 * Key notification status: empty (null) means pending (document 3 §4). held: due outside the
 * 24-hour window with no renewal-reminder template set; it goes out when the customer next writes.
 */
export const notificationStatuses = ['sent', 'failed', 'opted_out', 'held'] as const;
