/**
 * The /configuration page asks nothing of its own: the config status comes through features/config
 * (GET /api/admin/config-status, each item naming its service, a data key by its id), the chat
 * webhook's secret and addresses through features/qpay (GET /api/qpay/settings, the admin-only
 * reveal for Copy, rotate). Types only from the contracts (no zod in the bundle); the paths that
 * mirror contracts are checked against them in api.test.ts.
 */
import type { ConfigStatusItem } from '../config/api';
import type { QpaySettings } from '../qpay/api';

export type { ConfigStatusItem } from '../config/api';
export type { QpaySettings } from '../qpay/api';
/** The whole chat webhook secret, asked for at the moment it is copied (never kept on the page). */
export { fetchWebhookSecret } from '../qpay/api';

/** The inbound paths outside systems call: the chat flow's two requests and QPay's payment callback. */
export const inboundPaths = {
  /** chatWebhook (ai-chat): each message a subscriber writes, answered as a Dynamic Block. */
  chatMessages: '/api/manychat/webhook',
  /** chatPaymentWebhook (payments): the flow's payment step asks for a payment link. */
  chatPayment: '/api/qpay/webhook',
  /** qpayCallbackLegacy (payments); each invoice's own is this path with /:invoiceId and ?token=. */
  qpayCallback: '/api/qpay/callback',
} as const;

/** The header the chat flow sends the secret in (CHAT_WEBHOOK_SECRET_HEADER, as HTTP names it). */
export const CHAT_SECRET_HEADER = 'X-Webhook-Secret';

export type DataKeyItem = ConfigStatusItem & { dataKey: NonNullable<ConfigStatusItem['dataKey']> };

export const dataKeyItems = (items: readonly ConfigStatusItem[]): DataKeyItem[] => items.filter((item): item is DataKeyItem => item.dataKey !== undefined);

/**
 * The full address of an inbound path: on the public address the payments service builds its own
 * webhook address with (PUBLIC_URL), so every address on the page has the same origin.
 */
export function publicAddress(settings: Pick<QpaySettings, 'webhookUrl' | 'webhookPath'>, path: string): string {
  const { webhookUrl, webhookPath } = settings;
  return webhookUrl.endsWith(webhookPath) ? `${webhookUrl.slice(0, -webhookPath.length)}${path}` : path;
}
