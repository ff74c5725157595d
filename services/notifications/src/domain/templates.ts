/**
 * The chat messages, Mongolian first and English after (the product's interface mixes both), as
 * plain text: Messenger makes the links in it clickable. The reminder is an account update, not an
 * offer (it is sent with ACCOUNT_UPDATE outside the 24-hour window, where promotions are not allowed).
 */

/** Customers are in Mongolia: every time in a message is Ulaanbaatar time. */
const TIME_ZONE = 'Asia/Ulaanbaatar';
const DAY_MS = 24 * 60 * 60 * 1000;

const timeParts = new Intl.DateTimeFormat('en-GB', { timeZone: TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });

/** `2026-11-23 16:00` in Ulaanbaatar time. */
export function formatTime(iso: string | Date): string {
  const parts = Object.fromEntries(timeParts.formatToParts(new Date(iso)).map((part) => [part.type, part.value]));
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`;
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

export function keyDeliveryText(data: KeyDeliveryData): string {
  return [
    `✅ Таны ${data.serviceName} эрх бэлэн боллоо / Your ${data.serviceName} key is ready`,
    '',
    `🔑 Түлхүүр / Key: ${data.key}`,
    `📧 Нэвтрэх имэйл / Account e-mail: ${data.accountEmail}`,
    `🔒 Нууц үг / Password: ${data.accountPassword ?? 'бидэнтэй холбогдоно уу / please contact us'}`,
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
  /** When it is sent, and with which message tag outside the 24-hour window. */
  description: string;
  variables: string[];
  sample: string;
}

/** The three templates of the Notifications tab, each rendered on its sample data. */
export function templatePreviews(reminderDays: number): TemplatePreview[] {
  // The sample reminder is rendered as it would go out `reminderDays` before the sample expiry.
  const reminderNow = new Date(Date.parse(sampleReminder.expiresAt) - reminderDays * DAY_MS);
  return [
    {
      kind: 'key_delivery',
      name: 'Key delivery',
      description: 'Sent when a paid order gets its key; the account e-mail and password are read at send time. Outside 24 h: POST_PURCHASE_UPDATE.',
      variables: ['serviceName', 'key', 'accountEmail', 'accountPassword', 'profileNumber', 'expiresAt'],
      sample: keyDeliveryText(sampleKeyDelivery),
    },
    {
      kind: 'renewal_reminder',
      name: 'Renewal reminder',
      description: `Sent ${reminderDays} day${reminderDays === 1 ? '' : 's'} before expiry with a renewal payment link (<base_url>/api/streaming/renew/<session>); always tagged ACCOUNT_UPDATE.`,
      variables: ['serviceName', 'key', 'expiresAt', 'daysLeft', 'renewalUrl'],
      sample: renewalReminderText(sampleReminder, reminderNow),
    },
    {
      kind: 'payment_confirmation',
      name: 'Payment confirmation',
      description: 'Sent right after payment. Outside 24 h: POST_PURCHASE_UPDATE.',
      variables: ['amount', 'description', 'paidAt'],
      sample: paymentConfirmationText(samplePayment),
    },
  ];
}
