import { z } from 'zod';
import cron from 'node-cron';
import { isIdentityKeyText, parsePublicKeys } from './identity';

/** Raised at start when the environment is incomplete; its message has one line per bad variable. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Configuration is invalid:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Reads a service's configuration from the environment through its zod schema.
 * Every missing or bad variable is reported, not just the first, so one restart fixes them all.
 */
export function loadConfig<S extends z.ZodObject>(schema: S, env: NodeJS.ProcessEnv = process.env): z.infer<S> {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const name = issue.path.join('.') || '(environment)';
    const value = env[name];
    return value === undefined || value === '' ? `${name} is required (${issue.message})` : `${name} is invalid: ${issue.message}`;
  });
  throw new ConfigError(problems);
}

/** Empty strings in the environment mean "not set". */
export const optionalString = z.preprocess((v) => (v === '' ? undefined : v), z.string().optional());
export const optionalUrl = z.preprocess((v) => (v === '' ? undefined : v), z.url().optional());

/** Words that mark a value copied from an example rather than generated (`change-me`, `replace-with-…`). */
const PLACEHOLDER = /change[-_ ]?me|replace[-_ ]?(me|with)|placeholder|example|your[-_ ]|xxxx/i;

/**
 * A secret setting: at least 32 characters and not an example's placeholder, so a deployment that
 * forgot to set it stops at start instead of running with a value anyone can read in our files.
 */
export const secretSetting = z
  .string({ error: 'must be set to 32 or more random characters' })
  // A short value gets its one line; whether it is also a placeholder is not worth a second.
  .min(32, { error: 'must be at least 32 characters', abort: true })
  .refine((value) => !PLACEHOLDER.test(value) && new Set(value).size >= 8, 'is a placeholder: set it to 32 or more random characters');

/** IDENTITY_PRIVATE_KEY: this process's own Ed25519 private key, which signs the identity header of its calls. */
export const identityPrivateKeySetting = z
  .string({ error: "must be set to this process's identity key (make identity-keys)" })
  .refine(isIdentityKeyText, 'must be an Ed25519 private key, 43 base64url characters (make identity-keys)')
  // Random key text has far more distinct characters; a made-up one (`xxxx…`) does not.
  .refine((value) => new Set(value).size >= 16, "is a placeholder: set it to this process's identity key (make identity-keys)");

/** IDENTITY_PUBLIC_KEYS: `name:<public key>,…` of every process (public: it may live in a ConfigMap). */
export const identityPublicKeysSetting = z
  .string({ error: "must list every process's public identity key as name:<key>,… (make identity-keys)" })
  .superRefine((value, ctx) => {
    try {
      parsePublicKeys(value);
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: (error as Error).message });
    }
  });

/** The address customers reach the system at (links in messages and chat buttons), without a trailing slash. */
export const publicUrlSetting = () => z.url().default('http://localhost:5000').transform((url) => url.replace(/\/+$/, ''));

/** The variables every service reads; services extend this object with their own. */
export const serviceEnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535),
  /**
   * PostgreSQL, Redis and RabbitMQ. Every process of the distributed run needs all three (it
   * refuses to start without them); the embedded launcher hands its own in-process parts over.
   */
  DATABASE_URL: optionalUrl,
  REDIS_URL: optionalUrl,
  AMQP_URL: optionalUrl,
  /**
   * Each process signs the identity header with its own key and verifies others' with their
   * public keys: a person's identity only from the gateway, a service's only naming its signer.
   */
  IDENTITY_PRIVATE_KEY: identityPrivateKeySetting,
  IDENTITY_PUBLIC_KEYS: identityPublicKeysSetting,
  /** When the service's alert rules are evaluated (docs/alerts.md): a node-cron expression, every minute by default. */
  ALERT_CHECK_CRON: z
    .string()
    .refine((expression) => cron.validate(expression), 'must be a node-cron expression, e.g. 30 * * * * * (every minute at 30 s)')
    .default('30 * * * * *'),
});
export type ServiceEnv = z.infer<typeof serviceEnvSchema>;

/**
 * An outside system's address on this machine or a compose simulator host is a stand-in, not
 * the real system: the config-status page says "simulated" for it.
 */
export function isSimulatorUrl(url: string | undefined): boolean {
  if (!url) return false;
  const host = new URL(url).hostname;
  return host === 'localhost' || host.startsWith('127.') || host === '[::1]' || host.endsWith('-simulator');
}
