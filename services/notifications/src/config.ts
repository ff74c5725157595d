import { z } from 'zod';
import { loadConfig, serviceEnvSchema } from '@bo/platform';
import { isCronExpression } from '@bo/platform/runs';

const optionalText = z.preprocess((v) => (v === '' ? undefined : v), z.string().min(1).optional());

export const notificationsEnvSchema = serviceEnvSchema.extend({
  PORT: z.coerce.number().int().min(0).max(65535).default(5105),
  /** ManyChat's public API (external-apis.md §2). */
  MANYCHAT_API_URL: z.url().default('https://api.manychat.com'),
  /** Settings → API in ManyChat: `<page_id>:<secret>`. Unset: no message is sent, each is recorded as failed. */
  MANYCHAT_API_TOKEN: optionalText,
  /**
   * Per ManyChat request; a send that times out is retried (and may, rarely, reach the person twice: ManyChat has no idempotency key).
   * A send's claim is derived from it (tries × timeout + back-off, twice: the text, then outside the 24-hour window the template), so no second replica sends meanwhile.
   */
  MANYCHAT_TIMEOUT_MS: z.coerce.number().int().min(500).max(300_000).default(10_000),
  /** streaming-keys: keys expiring soon, a key's delivery details, renewal sessions. */
  STREAMING_KEYS_URL: z.url(),
  /** When the expiry check runs (node-cron syntax, 5 or 6 fields); one replica runs each turn. */
  EXPIRY_CHECK_CRON: z
    .string()
    .default('0 * * * *')
    .refine(isCronExpression, 'must be a cron expression such as "0 * * * *"'),
});
export type NotificationsConfig = z.infer<typeof notificationsEnvSchema>;

export const loadNotificationsConfig = (env: NodeJS.ProcessEnv = process.env) => loadConfig(notificationsEnvSchema, env);
