import { z } from 'zod';
import { dataEncryptionKeySchema, loadConfig, serviceEnvSchema } from '@bo/platform';

export const streamingKeysEnvSchema = serviceEnvSchema.extend({
  PORT: z.coerce.number().int().min(0).max(65535).default(5104),
  /** The public address: a renewal link opens here, then the payment page. */
  PUBLIC_URL: z.url().default('http://localhost:5000').transform((url) => url.replace(/\/+$/, '')),
  /** Seals each streaming account's shared password. */
  DATA_ENCRYPTION_KEY: dataEncryptionKeySchema,
  /** payments makes the QPay invoice of every streaming order and renewal. */
  PAYMENTS_URL: z.url(),
});
export type StreamingKeysConfig = z.infer<typeof streamingKeysEnvSchema>;

export const loadStreamingKeysConfig = (env: NodeJS.ProcessEnv = process.env) => loadConfig(streamingKeysEnvSchema, env);
