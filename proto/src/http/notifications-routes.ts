import { z } from 'zod';
import { defineRoute } from './contract';
import { textNumbers } from './fields';

const category = 'Chat notifications';

/** Document 2 §5: without a base URL the reminder has no renewal link. The quoted part is the product's text. */
export const BASE_URL_WARNING = 'Base URL is not set: renewal notifications will not work';
/** Document 2 §2.4: the payment line of the API status card. */
export const PAYMENT_STATUS_LINE = 'Using Existing QPay Setup' as const;
export const DEFAULT_EXPIRY_REMINDER_DAYS = 3;

/** Days before expiry a reminder goes out: a whole number from 1 to 30, sent as a number or digits. */
const DAYS_MESSAGE = 'Expiry reminder days must be a whole number from 1 to 30';
const reminderDays = z.preprocess(
  (value) => (typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value),
  z.number({ error: DAYS_MESSAGE }).int(DAYS_MESSAGE).min(1, 'Expiry reminder days must be at least 1').max(30, 'Expiry reminder days must be at most 30'),
);
textNumbers.add(reminderDays, { why: 'the settings form sends each value as typed (a URL or days)' });

/** The public address renewal links start with: trimmed, trailing slashes removed, http(s) only. */
const baseUrl = z
  .string({ error: 'Base URL must be a URL' })
  .trim()
  .transform((url) => url.replace(/\/+$/, ''))
  .pipe(z.url({ protocol: /^https?$/, error: 'Base URL must be a http:// or https:// URL' }));

export const settingKeys = ['expiry_reminder_days', 'base_url'] as const;
export type SettingKey = (typeof settingKeys)[number];

const settingUpdate = z.discriminatedUnion(
  'key',
  [
    z.object({ key: z.literal('expiry_reminder_days'), value: reminderDays }).strict(),
    z.object({ key: z.literal('base_url'), value: baseUrl }).strict(),
  ],
  { error: `key must be one of ${settingKeys.join(', ')}` },
);

/** The Settings tab: both settings, the missing-base-URL warning, and the API status card. */
export const manyChatSettingsSchema = z.object({
  expiry_reminder_days: z.number().int(),
  /** null until an admin sets it. */
  base_url: z.string().nullable(),
  /** BASE_URL_WARNING while base_url is not set; null otherwise. */
  warning: z.string().nullable(),
  status: z.object({
    /** Whether MANYCHAT_API_TOKEN is set. */
    apiConfigured: z.boolean(),
    /** The API address is a local stand-in (the ManyChat simulator). */
    simulated: z.boolean(),
    /** ManyChat answered getInfo with the token (null when not configured). */
    connected: z.boolean().nullable(),
    pageName: z.string().nullable(),
    /** Why ManyChat could not be asked; null otherwise. */
    error: z.string().nullable(),
    payment: z.literal(PAYMENT_STATUS_LINE),
  }),
});
export type ManyChatSettings = z.infer<typeof manyChatSettingsSchema>;

export const expiryCheckCountsSchema = z.object({
  /** Keys expiring within expiry_reminder_days that streaming-keys listed. */
  checked: z.number().int(),
  sent: z.number().int(),
  failed: z.number().int(),
  optedOut: z.number().int(),
  /** Already reminded for that expiry date (or being reminded by a check running at the same time). */
  skipped: z.number().int(),
});
export type ExpiryCheckCounts = z.infer<typeof expiryCheckCountsSchema>;

/** chat_answer: the chat's AI answer that came after its holding reply (issue 21). */
export const deliveryKinds = ['key_delivery', 'payment_confirmation', 'key_extension', 'renewal_reminder', 'chat_answer', 'test'] as const;
export const deliveryStatuses = ['pending', 'sent', 'failed', 'opted_out'] as const;

/** One chat message and what became of it. A key delivery's text is kept with the password masked. */
export const deliverySchema = z.object({
  id: z.number().int(),
  kind: z.enum(deliveryKinds),
  subscriberId: z.string(),
  keyId: z.number().int().nullable(),
  invoiceId: z.string().nullable(),
  status: z.enum(deliveryStatuses),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  messageTag: z.string().nullable(),
  sentText: z.string().nullable(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
});
export type Delivery = z.infer<typeof deliverySchema>;

export const templatePreviewSchema = z.object({
  kind: z.enum(['key_delivery', 'renewal_reminder', 'payment_confirmation']),
  name: z.string(),
  description: z.string(),
  variables: z.array(z.string()),
  /** The template rendered on sample data, exactly as the chat would show it. */
  sample: z.string(),
});

/** A ManyChat subscriber id: digits. */
const subscriberId = z.union([z.string(), z.number()]).transform(String).pipe(z.string().trim().regex(/^\d{1,20}$/, 'User ID must be a ManyChat subscriber id (digits)'));

const sampleSettings: ManyChatSettings = {
  expiry_reminder_days: 3,
  base_url: 'https://shop.example.mn',
  warning: null,
  status: { apiConfigured: true, simulated: false, connected: true, pageName: 'Stream Keys Shop', error: null, payment: PAYMENT_STATUS_LINE },
};

export const getManyChatSettings = defineRoute({
  owner: 'notifications', method: 'GET', path: '/api/manychat/settings', access: 'admin', category,
  reply: manyChatSettingsSchema,
  summary: 'Reminder settings (expiry_reminder_days, base_url), the missing base URL warning and the ManyChat API status card',
  example: { reply: sampleSettings },
});

export const updateManyChatSetting = defineRoute({
  owner: 'notifications', method: 'POST', path: '/api/manychat/settings', access: 'admin', category,
  body: settingUpdate,
  reply: z.object({ success: z.boolean(), message: z.string(), data: z.object({ key: z.enum(settingKeys), value: z.union([z.number(), z.string()]) }) }),
  summary: 'Sets one setting: expiry_reminder_days (1–30) or base_url (http(s), trimmed, trailing slashes removed)',
  example: { body: { key: 'expiry_reminder_days', value: 5 }, reply: { success: true, message: 'Settings updated successfully', data: { key: 'expiry_reminder_days', value: 5 } } },
});

export const triggerExpiryCheck = defineRoute({
  owner: 'notifications', method: 'POST', path: '/api/manychat/trigger-expiry-check', access: 'admin', category,
  body: z.object({}).strict(),
  reply: z.object({ success: z.boolean(), message: z.string(), data: expiryCheckCountsSchema }),
  summary: 'Runs the expiry check now: one renewal reminder per key and expiry date, and answers its counts',
  example: { body: {}, reply: { success: true, message: 'Expiry check triggered successfully', data: { checked: 4, sent: 2, failed: 0, optedOut: 1, skipped: 1 } } },
});

export const sendTestNotification = defineRoute({
  owner: 'notifications', method: 'POST', path: '/api/manychat/test-notification', access: 'admin', category: 'Streaming keys',
  body: z.object({ userId: subscriberId }),
  reply: z.object({
    success: z.boolean(),
    message: z.string(),
    /** keyId: the sample key the message shows (a test never uses a real key). */
    data: z.object({ userId: z.string(), service: z.string(), keyId: z.string() }),
  }),
  summary: "Sends the key-delivery message on sample data to a chat user; ManyChat's refusal comes back as the error",
  example: { body: { userId: '9000001' }, reply: { success: true, message: 'Test notification sent', data: { userId: '9000001', service: 'Netflix', keyId: 'SK-0000000000-NFX' } } },
});

export const listManyChatTemplates = defineRoute({
  owner: 'notifications', method: 'GET', path: '/api/manychat/templates', access: 'admin', category,
  reply: z.object({ data: z.array(templatePreviewSchema) }),
  summary: 'The three message templates (key delivery, renewal reminder, payment confirmation), each rendered on sample data',
  example: {
    reply: {
      data: [{ kind: 'payment_confirmation', name: 'Payment confirmation', description: 'Sent right after payment.', variables: ['amount', 'description', 'paidAt'], sample: '✅ Төлбөр амжилттай төлөгдлөө / Payment received' }],
    },
  },
});

export const listDeliveries = defineRoute({
  owner: 'notifications', method: 'GET', path: '/api/manychat/deliveries', access: 'admin', category,
  query: z.object({
    kind: z.enum(deliveryKinds).optional(),
    status: z.enum(deliveryStatuses).optional(),
    limit: z.coerce.number().int().min(1).max(200).default(50),
  }),
  reply: z.object({ data: z.array(deliverySchema) }),
  summary: 'Recent chat messages, newest first, with their status, attempts and last error',
  example: {
    query: { status: 'failed' },
    reply: {
      data: [{
        id: 7, kind: 'payment_confirmation', subscriberId: '1234567', keyId: null, invoiceId: 'INV-7K3Q9X2M4P', status: 'failed', attempts: 5,
        lastError: 'ManyChat refused the API token (401): Access denied', messageTag: null, sentText: null, createdAt: '2026-11-23T08:00:01.000Z', sentAt: null,
      }],
    },
  },
});

/** The notifications service's routes (ManyChat settings, templates, expiry check, test notification, deliveries). */
export const notificationsRoutes = [getManyChatSettings, updateManyChatSetting, triggerExpiryCheck, sendTestNotification, listManyChatTemplates, listDeliveries];
