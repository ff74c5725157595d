/** The /manychat-admin page's calls. Their shapes are the route contracts' (types only: no zod in the bundle). */
import type { getManyChatSettings, listDeliveries, listManyChatTemplates, ReplyOf, RequestBodyOf, triggerExpiryCheck, updateManyChatSetting } from '@bo/proto';
import { apiKey, queryString } from '../../lib/paths';

export type { Delivery, ExpiryCheckCounts, ManyChatSettings, TemplateKind } from '@bo/proto';

export type SettingsReply = ReplyOf<typeof getManyChatSettings>;
export type SettingUpdate = RequestBodyOf<typeof updateManyChatSetting>;
export type SettingUpdateReply = ReplyOf<typeof updateManyChatSetting>;
export type ExpiryCheckReply = ReplyOf<typeof triggerExpiryCheck>;
export type TemplatesReply = ReplyOf<typeof listManyChatTemplates>;
export type TemplatePreview = TemplatesReply['data'][number];
export type UtilityTemplate = SettingsReply['utility_templates'][number];
export type DeliveriesReply = ReplyOf<typeof listDeliveries>;

/** The held messages the Notifications tab lists (the route's most). */
export const HELD_SHOWN = 200;

/** Document 2 §5/§9: reminders go out 1 to 30 days before expiry, 3 by default. */
export const REMINDER_DAYS = { min: 1, max: 30 } as const;

export const manyChatKeys = {
  settings: apiKey('/api/manychat/settings'),
  templates: apiKey('/api/manychat/templates'),
  held: apiKey('/api/manychat/deliveries', queryString({ status: 'held', limit: HELD_SHOWN })),
} as const;

export const manyChatPaths = {
  settings: '/api/manychat/settings',
  expiryCheck: '/api/manychat/trigger-expiry-check',
} as const;
