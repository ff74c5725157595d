import { z } from 'zod';
import { loadConfig, publicUrlSetting, serviceEnvSchema } from '@bo/platform';
import { API_KEY_ENV_VAR_PATTERN } from '@bo/proto';

export const aiChatSettingsSchema = serviceEnvSchema.extend({
  PORT: z.coerce.number().int().min(0).max(65535).default(5106),
  /** Each provider family's OpenAI-compatible API (Gemini and Claude both offer one). */
  OPENAI_BASE_URL: z.url().default('https://api.openai.com/v1'),
  GEMINI_BASE_URL: z.url().default('https://generativelanguage.googleapis.com/v1beta/openai'),
  CLAUDE_BASE_URL: z.url().default('https://api.anthropic.com/v1'),
  /** The address customers reach us at: the chat's Buy links point there. */
  PUBLIC_URL: publicUrlSetting(),
  PRICING_URL: z.url(),
  PAYMENTS_URL: z.url(),
  /**
   * How long after a chat message arrives its reply leaves at the latest (the holding message when
   * the AI has not answered by then): ManyChat gives up on the webhook after about 10 s, and the
   * reply must leave us within 8 s.
   */
  CHAT_REPLY_DEADLINE_MS: z.coerce.number().int().min(500).max(8_000).default(7_000),
  /** Messages a subscriber sends this close together make one AI call (the burst's last one answers). */
  CHAT_BURST_MS: z.coerce.number().int().min(0).max(5_000).default(2_000),
  /** Per provider request; a provider slower than this is passed over for the next one. */
  AI_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(8000),
  /**
   * Requests a minute each provider key may make, every replica together (a pace shared in Redis):
   * the key's limit at its provider, which depends on the account's tier (500 is OpenAI's first
   * paid tier for its small models). A chat question that finds it full goes to the next provider.
   */
  AI_REQUESTS_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(500),
  /**
   * The provider keys: every `*_API_KEY` variable of the environment the service started with
   * (collected below), so a provider row may name any of them. Never shown, only whether set.
   */
  AI_API_KEYS: z.record(z.string(), z.string()),
});

/** The settings, with the API keys gathered out of the environment before it is checked. */
export const aiChatEnvSchema = z.preprocess((env) => {
  if (typeof env !== 'object' || env === null) return env;
  const keys = Object.entries(env).flatMap(([name, value]) => (API_KEY_ENV_VAR_PATTERN.test(name) && typeof value === 'string' && value.trim() !== '' ? [[name, value.trim()]] : []));
  return { ...env, AI_API_KEYS: Object.fromEntries(keys) };
}, aiChatSettingsSchema);
export type AiChatConfig = z.infer<typeof aiChatSettingsSchema>;

/** loadConfig's readable errors; it types object schemas only, and this one gathers the keys first. */
export const loadAiChatConfig = (env: NodeJS.ProcessEnv = process.env) => loadConfig(aiChatEnvSchema as never, env) as AiChatConfig;
