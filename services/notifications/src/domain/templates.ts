/**
 * The chat messages, Mongolian first and English after (the product's interface mixes both), as
 * plain text: Messenger makes the links in it clickable. Outside the 24-hour window a message goes
 * through its kind's utility template instead, filled with the same data as named variables. The
 * reminder is an account update, not an offer (utility templates allow no promotion).
 */
import { businessDate, businessTimeOf, type TemplateKind } from '@bo/proto';

const DAY_MS = 24 * 60 * 60 * 1000;

/** `2026-11-23 16:00`: customers are in Mongolia, so every time in a message is Ulaanbaatar time (proto's BUSINESS_TIME_ZONE). */
export function formatTime(iso: string | Date): string {
  const at = new Date(iso);
  const { hour, minute } = businessTimeOf(at);
  return `${businessDate(at)} ${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;
}

/** `35,000₮`: whole tugrik with thousands separators. */
export function formatTugrik(amount: number): string {
  return `${Math.round(amount).toLocaleString('en-US')}₮`;
}

/** Whole days until `expiresAt`, at least 1 while it has not passed (a key ending in 5 hours "ends in 1 day"). */
export function daysLeft(expiresAt: string, now: Date): number {
  return Math.max(1, Math.ceil((Date.parse(expiresAt) - now.getTime()) / DAY_MS));
}

export interface KeyDeliveryData {
  serviceName: string;
  key: string;
  accountEmail: string;
  /** null when no password is stored for the account: the customer is told to ask us. */
  accountPassword: string | null;
  profileNumber: number;
  expiresAt: string;
}

/** A chat message: its text inside the 24-hour window, and outside it the utility template of its kind with its variables. */
export interface ChatMessage {
  text: string;
  /** null: the message has no template (a chat answer, a flow), so it goes inside the window only. */
  template: { kind: TemplateKind; variables: Record<string, string> } | null;
  /** A ManyChat flow to send (sendFlow) instead of the text; `text` then only records what went. */
  flowNamespace?: string;
}

/** The variables each kind's utility template is filled with, by name (Meta's placeholders: lowercase and underscores). */
export const templateVariables = {
  key_delivery: ['service_name', 'key', 'account_email', 'account_password', 'profile_number', 'expires_at'],
  payment_confirmation: ['amount', 'description', 'paid_at'],
  renewal_reminder: ['service_name', 'key', 'expires_at', 'days_left', 'renewal_url'],
  key_extension: ['service_name', 'key', 'expires_at'],
  alert: ['change', 'title', 'message', 'service', 'at'],
} as const satisfies Record<TemplateKind, readonly string[]>;

type VariablesOf<K extends TemplateKind> = Record<(typeof templateVariables)[K][number], string>;
const templated = <K extends TemplateKind>(kind: K, text: string, variables: VariablesOf<K>): ChatMessage => ({ text, template: { kind, variables } });

/** How a sent message is recorded: its text, or (through a template) its variables one per line. */
export function recordedText(message: ChatMessage, templateName: string | null): string {
  if (!templateName || !message.template) return message.text;
  return [`${templateName}:`, ...Object.entries(message.template.variables).map(([name, value]) => `${name} = ${value}`)].join('\n');
}

const NO_PASSWORD = 'бидэнтэй холбогдоно уу / please contact us';

export function keyDeliveryMessage(data: KeyDeliveryData): ChatMessage {
  return templated('key_delivery', keyDeliveryText(data), {
    service_name: data.serviceName,
    key: data.key,
    account_email: data.accountEmail,
    account_password: data.accountPassword ?? NO_PASSWORD,
    profile_number: String(data.profileNumber),
    expires_at: formatTime(data.expiresAt),
  });
}

export function keyDeliveryText(data: KeyDeliveryData): string {
  return [
    `✅ Таны ${data.serviceName} эрх бэлэн боллоо / Your ${data.serviceName} key is ready`,
    '',
    `🔑 Түлхүүр / Key: ${data.key}`,
    `📧 Нэвтрэх имэйл / Account e-mail: ${data.accountEmail}`,
    `🔒 Нууц үг / Password: ${data.accountPassword ?? NO_PASSWORD}`,
    `👤 Профайл / Profile: ${data.profileNumber}`,
    `📅 Дуусах хугацаа / Expires: ${formatTime(data.expiresAt)}`,
    '',
    'Зөвхөн өөрийн профайлыг ашиглана уу. / Please use only your own profile.',
  ].join('\n');
}

export interface RenewalReminderData {
  serviceName: string;
  key: string;
  expiresAt: string;
  /** `<base_url><path>` of the key's renewal session. */
  renewalUrl: string;
}

export function renewalReminderMessage(data: RenewalReminderData, now: Date): ChatMessage {
  return templated('renewal_reminder', renewalReminderText(data, now), {
    service_name: data.serviceName,
    key: data.key,
    expires_at: formatTime(data.expiresAt),
    days_left: String(daysLeft(data.expiresAt, now)),
    renewal_url: data.renewalUrl,
  });
}

export function renewalReminderText(data: RenewalReminderData, now: Date): string {
  const days = daysLeft(data.expiresAt, now);
  return [
    `ℹ️ Таны ${data.serviceName} эрх ${days} хоногийн дараа дуусна / Your ${data.serviceName} access ends in ${days} day${days === 1 ? '' : 's'}`,
    '',
    `🔑 Түлхүүр / Key: ${data.key}`,
    `📅 Дуусах хугацаа / Expires: ${formatTime(data.expiresAt)}`,
    '',
    'Сунгах бол энэ холбоосоор төлнө үү / To renew, pay through this link:',
    data.renewalUrl,
  ].join('\n');
}

export interface PaymentConfirmationData {
  amount: number;
  description: string;
  paidAt: string;
}

export function paymentConfirmationMessage(data: PaymentConfirmationData): ChatMessage {
  // A template's variable may not be empty (Meta refuses it); an order's description may be.
  return templated('payment_confirmation', paymentConfirmationText(data), { amount: formatTugrik(data.amount), description: data.description || '—', paid_at: formatTime(data.paidAt) });
}

export function paymentConfirmationText(data: PaymentConfirmationData): string {
  return [
    '✅ Төлбөр амжилттай төлөгдлөө / Payment received',
    '',
    `💰 Дүн / Amount: ${formatTugrik(data.amount)}`,
    `📝 ${data.description}`,
    `🕒 Төлсөн / Paid: ${formatTime(data.paidAt)}`,
  ].join('\n');
}

export interface KeyExtensionData {
  serviceName: string;
  key: string;
  expiresAt: string;
}

export function keyExtensionMessage(data: KeyExtensionData): ChatMessage {
  return templated('key_extension', keyExtensionText(data), { service_name: data.serviceName, key: data.key, expires_at: formatTime(data.expiresAt) });
}

/** The chat's late AI answer: text only, inside the window. */
export const chatAnswerMessage = (text: string): ChatMessage => ({ text, template: null });

/** The flow an admin mapped to a product, sent instead of the chat's own answer. */
export const chatFlowMessage = (flowNamespace: string, product: string): ChatMessage => ({ text: `Flow ${flowNamespace} (${product})`, template: null, flowNamespace });

/** What an alert message says (an alert.changed event: its change and the alert as listed then). */
export interface AlertMessageData {
  change: 'fired' | 'resolved';
  service: string;
  title: string;
  message: string;
  /** When it fired or resolved. */
  at: string;
}

/** An alert to the admin's subscriber: text inside the window, its utility template outside it (held while none is set). */
export function alertMessage(data: AlertMessageData): ChatMessage {
  const head = data.change === 'fired' ? `🔴 Анхааруулга / Alert: ${data.title}` : `✅ Шийдэгдсэн / Resolved: ${data.title}`;
  return templated('alert', [head, data.message, `${data.service} · ${formatTime(data.at)}`].join('\n'), {
    change: data.change === 'fired' ? 'Alert' : 'Resolved',
    title: data.title,
    // A template's variable may not be empty (Meta refuses it).
    message: data.message || '—',
    service: data.service,
    at: formatTime(data.at),
  });
}

export function keyExtensionText(data: KeyExtensionData): string {
  return [
    `✅ Таны ${data.serviceName} эрх сунгагдлаа / Your ${data.serviceName} key has been renewed`,
    '',
    `🔑 Түлхүүр / Key: ${data.key}`,
    `📅 Дуусах хугацаа / Now runs until: ${formatTime(data.expiresAt)}`,
  ].join('\n');
}

/** Sample data for previews and the test notification; the key is not a real one (its random part is all zeros). */
export const sampleKeyDelivery: KeyDeliveryData = {
  serviceName: 'Netflix',
  key: 'SK-0000000000-NFX',
  accountEmail: 'sample.account@example.mn',
  accountPassword: 'Sample-Pass-2026',
  profileNumber: 3,
  expiresAt: '2026-12-23T08:00:00.000Z',
};
const sampleReminder: RenewalReminderData = {
  serviceName: 'Netflix',
  key: 'SK-0000000000-NFX',
  expiresAt: '2026-12-23T08:00:00.000Z',
  renewalUrl: 'https://shop.example.mn/api/streaming/renew/rs_sample',
};
const samplePayment: PaymentConfirmationData = { amount: 35000, description: 'Netflix 1 сар', paidAt: '2026-11-23T08:00:00.000Z' };

export interface TemplatePreview {
  kind: 'key_delivery' | 'renewal_reminder' | 'payment_confirmation';
  name: string;
  /** When it is sent, and how outside the 24-hour window. */
  description: string;
  /** What its utility template is filled with outside the window. */
  variables: string[];
  sample: string;
}

const OUTSIDE_WINDOW = 'Outside 24 h: through its utility template, or held until the customer writes when none is set.';

/** The three templates of the Notifications tab, each rendered on its sample data. */
export function templatePreviews(reminderDays: number): TemplatePreview[] {
  // The sample reminder is rendered as it would go out `reminderDays` before the sample expiry.
  const reminderNow = new Date(Date.parse(sampleReminder.expiresAt) - reminderDays * DAY_MS);
  return [
    {
      kind: 'key_delivery',
      name: 'Key delivery',
      description: `Sent when a paid order gets its key; the account e-mail and password are read at send time. ${OUTSIDE_WINDOW}`,
      variables: [...templateVariables.key_delivery],
      sample: keyDeliveryText(sampleKeyDelivery),
    },
    {
      kind: 'renewal_reminder',
      name: 'Renewal reminder',
      description: `Sent ${reminderDays} day${reminderDays === 1 ? '' : 's'} before expiry with a renewal payment link (<base_url>/api/streaming/renew/<session>). ${OUTSIDE_WINDOW}`,
      variables: [...templateVariables.renewal_reminder],
      sample: renewalReminderText(sampleReminder, reminderNow),
    },
    {
      kind: 'payment_confirmation',
      name: 'Payment confirmation',
      description: `Sent right after payment. ${OUTSIDE_WINDOW}`,
      variables: [...templateVariables.payment_confirmation],
      sample: paymentConfirmationText(samplePayment),
    },
  ];
}
