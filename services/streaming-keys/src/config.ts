import { z } from 'zod';
import { dataEncryptionEnv, loadConfig, publicUrlSetting, serviceEnvSchema } from '@bo/platform';

/** An IMAP server address: imaps://host[:993], or imap://host[:143] (the simulator, no TLS). Empty means unset. */
const imapUrl = z.preprocess(
  (v) => (v === '' ? undefined : v),
  z.url().refine((url) => /^imaps?:\/\/[^/]+\/?$/i.test(url), 'must be imap://host:port or imaps://host:port').optional(),
);

export const streamingKeysEnvSchema = serviceEnvSchema.extend({
  PORT: z.coerce.number().int().min(0).max(65535).default(5104),
  /** The public address: a renewal link opens here, then the payment page. */
  PUBLIC_URL: publicUrlSetting(),
  /** Seals each streaming account's shared password and its mailbox password. */
  ...dataEncryptionEnv,
  /** payments makes the QPay invoice of every streaming order and renewal. */
  PAYMENTS_URL: z.url(),
  /**
   * ai-chat parses the mails a customer's code fetch read (ADR 15). Every launcher sets it; it is
   * optional so a run without ai-chat (another service's test system) still starts, and code
   * fetching then answers 503 like an unset mailbox server.
   */
  AI_CHAT_URL: z.preprocess((v) => (v === '' ? undefined : v), z.url().optional()),
  /** The IMAP server of the accounts' mailboxes; each account e-mail is its own login. Unset: code fetching answers 503. */
  MAILBOX_IMAP_URL: imapUrl,
  /** How long one mailbox read (connect, sign in, search, download) may take. */
  MAILBOX_TIMEOUT_MS: z.coerce.number().int().min(500).max(120_000).default(10_000),
  /** A customer's key fetches codes (and makes its QR code) at most once this often (issue 18: 30 s). */
  CODE_FETCH_KEY_INTERVAL_MS: z.coerce.number().int().min(1).max(3_600_000).default(30_000),
  /** After 3 failed mailbox sign-ins, nobody signs in to that mailbox for this long (15 minutes), so clicks cannot get it locked. */
  MAILBOX_PAUSE_MS: z.coerce.number().int().min(1).max(86_400_000).default(900_000),
  /** A streaming service with fewer free key slots than this raises the "Few free key slots" alert (docs/alerts.md). */
  LOW_FREE_SLOTS_THRESHOLD: z.coerce.number().int().min(0).max(10_000).default(3),
});
export type StreamingKeysConfig = z.infer<typeof streamingKeysEnvSchema>;

export const loadStreamingKeysConfig = (env: NodeJS.ProcessEnv = process.env) => loadConfig(streamingKeysEnvSchema, env);
