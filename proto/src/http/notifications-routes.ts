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

/**
 * The messages that may go outside Messenger's 24-hour window, each only through the approved
 * utility template an admin names for it (external-apis.md §2, "Changed in 2026"). A chat answer
 * has none: outside the window it is not sent.
 */
export const templateKinds = ['key_delivery', 'payment_confirmation', 'renewal_reminder', 'key_extension', 'alert'] as const;
export type TemplateKind = (typeof templateKinds)[number];

/** A Meta template name (lowercase letters, digits, underscores); empty clears it. */
const TEMPLATE_NAME_MESSAGE = 'Template name must be lowercase letters, digits and underscores, as Meta names templates';
const templateName = z.string({ error: TEMPLATE_NAME_MESSAGE }).trim().max(512, 'Template name must be at most 512 characters').regex(/^[a-z0-9_]*$/, TEMPLATE_NAME_MESSAGE);

/** The admin's ManyChat subscriber every alert that fires or resolves is sent to: digits, or empty to send none. */
const ALERT_SUBSCRIBER_MESSAGE = 'Alert subscriber must be a ManyChat subscriber id (digits), or empty to send no alerts';
const alertSubscriberId = z.union([z.string(), z.number()], { error: ALERT_SUBSCRIBER_MESSAGE }).transform(String).pipe(z.string().trim().regex(/^(\d{1,20})?$/, ALERT_SUBSCRIBER_MESSAGE));

export const settingKeys = ['expiry_reminder_days', 'base_url', 'alert_subscriber_id', 'template_key_delivery', 'template_payment_confirmation', 'template_renewal_reminder', 'template_key_extension', 'template_alert'] as const;
export type SettingKey = (typeof settingKeys)[number];
/** The setting that names a kind's utility template. */
export const templateSettingKey = (kind: TemplateKind) => `template_${kind}` as const;

const settingUpdate = z.discriminatedUnion(
  'key',
  [
    z.object({ key: z.literal('expiry_reminder_days'), value: reminderDays }).strict(),
    z.object({ key: z.literal('base_url'), value: baseUrl }).strict(),
    z.object({ key: z.literal('alert_subscriber_id'), value: alertSubscriberId }).strict(),
    ...templateKinds.map((kind) => z.object({ key: z.literal(templateSettingKey(kind)), value: templateName }).strict()),
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
  /** The admin's ManyChat subscriber alerts are sent to; null: alerts are only shown on the overview. */
  alert_subscriber_id: z.string().nullable(),
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
  /** Per kind, the utility template its messages go through outside the 24-hour window (null: none set, they are held). */
  utility_templates: z.array(z.object({
    kind: z.enum(templateKinds),
    name: z.string().nullable(),
    /** The variables a send fills, by name: what the template's placeholders may use. */
    variables: z.array(z.string()),
  })),
});
export type ManyChatSettings = z.infer<typeof manyChatSettingsSchema>;

export const expiryCheckCountsSchema = z.object({
  /** Keys expiring within expiry_reminder_days that streaming-keys listed. */
  checked: z.number().int(),
  sent: z.number().int(),
  failed: z.number().int(),
  optedOut: z.number().int(),
  /** Outside the 24-hour window with no renewal-reminder template set: each goes out when its subscriber next writes. */
  held: z.number().int(),
  /** Already reminded for that expiry date (or being reminded by a check running at the same time). */
  skipped: z.number().int(),
});
export type ExpiryCheckCounts = z.infer<typeof expiryCheckCountsSchema>;

/** chat_answer: the chat's AI answer that came after its holding reply; chat_flow: a ManyChat flow an admin mapped to the product asked about (issue 21). */
export const deliveryKinds = ['key_delivery', 'payment_confirmation', 'key_extension', 'renewal_reminder', 'chat_answer', 'chat_flow', 'alert', 'test'] as const;
/** held: outside the 24-hour window with no utility template set for its kind; it goes out when the subscriber next writes. */
export const deliveryStatuses = ['pending', 'sent', 'failed', 'opted_out', 'held'] as const;

/** One chat message and what became of it. A key delivery's text is kept with the password masked. */
export const deliverySchema = z.object({
  id: z.number().int(),
  kind: z.enum(deliveryKinds),
  subscriberId: z.string(),
  keyId: z.number().int().nullable(),
  invoiceId: z.string().nullable(),
  status: z.enum(deliveryStatuses),
  attempts: z.number().int(),
  /** Why it failed, is held, or was not sent (a chat answer outside the window); null once sent. */
  lastError: z.string().nullable(),
  /** The utility template it went out through (outside the 24-hour window); null when sent as text inside it. */
  templateName: z.string().nullable(),
  /** The text sent, or a template's variables one per line; a password masked. */
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
  alert_subscriber_id: '8800112233',
  status: { apiConfigured: true, simulated: false, connected: true, pageName: 'Stream Keys Shop', error: null, payment: PAYMENT_STATUS_LINE },
  utility_templates: [
    { kind: 'key_delivery', name: 'key_delivery', variables: ['service_name', 'key', 'account_email', 'account_password', 'profile_number', 'expires_at'] },
    { kind: 'payment_confirmation', name: null, variables: ['amount', 'description', 'paid_at'] },
    { kind: 'renewal_reminder', name: 'renewal_reminder', variables: ['service_name', 'key', 'expires_at', 'days_left', 'renewal_url'] },
    { kind: 'key_extension', name: null, variables: ['service_name', 'key', 'expires_at'] },
  ],
};

export const getManyChatSettings = defineRoute({
  owner: 'notifications', method: 'GET', path: '/api/manychat/settings', access: 'admin', category,
  reply: manyChatSettingsSchema,
  summary: 'Reminder settings (expiry_reminder_days, base_url), the utility template of each kind of message, the missing base URL warning and the ManyChat API status card',
  example: { reply: sampleSettings },
});

export const updateManyChatSetting = defineRoute({
  owner: 'notifications', method: 'POST', path: '/api/manychat/settings', access: 'admin', category,
  body: settingUpdate,
  reply: z.object({ success: z.boolean(), message: z.string(), data: z.object({ key: z.enum(settingKeys), value: z.union([z.number(), z.string()]) }) }),
  summary: 'Sets one setting: expiry_reminder_days (1–30), base_url (http(s), trimmed, trailing slashes removed), alert_subscriber_id (the admin ManyChat subscriber alerts go to; empty: none) or template_<kind> (a Meta template name; empty clears it)',
  example: { body: { key: 'expiry_reminder_days', value: 5 }, reply: { success: true, message: 'Settings updated successfully', data: { key: 'expiry_reminder_days', value: 5 } } },
});

export const triggerExpiryCheck = defineRoute({
  owner: 'notifications', method: 'POST', path: '/api/manychat/trigger-expiry-check', access: 'admin', category,
  body: z.object({}).strict(),
  reply: z.object({
    success: z.boolean(),
    message: z.string(),
    data: expiryCheckCountsSchema,
    /** The expiry-check run whose counts these are (`notifications.<uuid>`; Background work shows it). */
    runId: z.string(),
    /**
     * true: a check already going with the same settings (the hourly one, or another press) was
     * joined, and these are its counts; false: this press started it. A check started with other
     * settings is never joined: the press waits for it to end and starts its own.
     */
    joined: z.boolean(),
    /** expiry_reminder_days as the check used it: the settings when pressed. */
    days: z.number().int(),
  }),
  summary:
    'Runs the expiry check now with the settings as they are (joining a check already going only when it has the same settings; one with other settings is waited for, 409 when it runs past the wait): one renewal reminder per key and expiry date, and answers its counts',
  example: {
    body: {},
    reply: {
      success: true, message: 'Expiry check triggered successfully', data: { checked: 5, sent: 2, failed: 0, optedOut: 1, held: 1, skipped: 1 },
      runId: 'notifications.6f1c2d3e-4a5b-4c6d-8e7f-901a2b3c4d5e', joined: true, days: 3,
    },
  },
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
  summary: "Sends the key-delivery message on sample data to a chat user (outside the 24-hour window through its utility template); ManyChat's refusal, or why it could not go, comes back as the error",
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
  summary: 'Recent chat messages, newest first, with their status, attempts and last error (status=held: those waiting for their subscriber to write)',
  example: {
    query: { status: 'failed' },
    reply: {
      data: [{
        id: 7, kind: 'payment_confirmation', subscriberId: '1234567', keyId: null, invoiceId: 'INV-7K3Q9X2M4P', status: 'failed', attempts: 5,
        lastError: 'ManyChat refused the API token (401): Access denied', templateName: null, sentText: null, createdAt: '2026-11-23T08:00:01.000Z', sentAt: null,
      }],
    },
  },
});

/** The notifications service's routes (ManyChat settings, templates, expiry check, test notification, deliveries). */
export const notificationsRoutes = [getManyChatSettings, updateManyChatSetting, triggerExpiryCheck, sendTestNotification, listManyChatTemplates, listDeliveries];
