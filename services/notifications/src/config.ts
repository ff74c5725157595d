import { z } from 'zod';
import { loadConfig, serviceEnvSchema } from '@bo/platform';

const optionalText = z.preprocess((v) => (v === '' ? undefined : v), z.string().min(1).optional());

export const notificationsEnvSchema = serviceEnvSchema.extend({
  PORT: z.coerce.number().int().min(0).max(65535).default(5105),
  /** ManyChat's public API (external-apis.md §2). */
  MANYCHAT_API_URL: z.url().default('https://api.manychat.com'),
  /** Settings → API in ManyChat: `<page_id>:<secret>`. Unset: no message is sent, each is recorded as failed. */
  MANYCHAT_API_TOKEN: optionalText,
  /** streaming-keys: keys expiring soon, and a key's delivery details. */
  STREAMING_KEYS_URL: z.url(),
});
export type NotificationsConfig = z.infer<typeof notificationsEnvSchema>;

export const loadNotificationsConfig = (env: NodeJS.ProcessEnv = process.env) => loadConfig(notificationsEnvSchema, env);
