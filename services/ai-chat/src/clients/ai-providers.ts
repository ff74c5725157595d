import OpenAI from 'openai';
import type { Logger } from '@bo/platform';
import { OutsideCallError, type OutsideOptions, type OutsideSystem } from '@bo/platform/outside';
import type { aiProviderFamilies } from '@bo/proto';

export type ProviderFamily = (typeof aiProviderFamilies)[number];

/** One provider row as the client needs it: which API, which model, which variable holds the key. */
export interface ProviderTarget {
  id: number;
  provider: ProviderFamily;
  model: string;
  apiKeyEnvVar: string;
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** The first provider's answer (its text, possibly empty), or null when none answered. */
export type ChatAnswer = { content: string; providerId: number } | null;

export interface AiProvidersOptions {
  baseUrls: Record<ProviderFamily, string>;
  /** The environment's `*_API_KEY` variables, by name. */
  apiKeys: Record<string, string>;
  timeoutMs: number;
  logger: Logger;
  /** The service's outside systems (ServiceContext's `outside`): one per family. */
  outside: (options: OutsideOptions) => OutsideSystem;
}

/** Why a provider did not answer, for the log: never the key, nor the provider's message (it may quote part of the key). */
function failureOf(error: unknown): string {
  if (error instanceof OutsideCallError) {
    if (error.failure === 'timeout') return 'timed out';
    if (error.failure === 'unreachable') return 'could not connect';
    if (error.failure === 'breaker_open') return 'paused after repeated failures';
    return error.failure;
  }
  if (error instanceof OpenAI.APIConnectionTimeoutError) return 'timed out';
  if (error instanceof OpenAI.APIConnectionError) return 'could not connect';
  if (error instanceof OpenAI.APIError) return `answered ${error.status}${error.code ? ` (${error.code})` : ''}`;
  return error instanceof Error ? error.name : 'failed';
}

/**
 * The AI providers through their OpenAI-compatible APIs (Gemini and Claude offer one), one
 * client per family and key, each call through the platform's outside client (`run`): the
 * deadline, a breaker per family and the metrics. Nothing retries (the SDK's maxRetries 0, the
 * outside client's retries 0): the next provider is the retry, so a customer waits at most one
 * timeout per provider, and none for a family whose breaker is open.
 */
export class AiProviders {
  private readonly clients = new Map<string, OpenAI>();
  private readonly systems = new Map<ProviderFamily, OutsideSystem>();

  constructor(private readonly options: AiProvidersOptions) {}

  /** Whether the variable a provider row names holds a key. */
  keyPresent(apiKeyEnvVar: string): boolean {
    return apiKeyEnvVar in this.options.apiKeys;
  }

  /**
   * Asks the providers in the order given until one answers. A provider without its key is
   * skipped; any failure (timeout, 429, 5xx, refused key, connection error, or any other error
   * status) moves on to the next.
   */
  async chat(providers: ProviderTarget[], messages: ChatMessage[], options: { json: boolean }): Promise<ChatAnswer> {
    for (const target of providers) {
      const client = this.clientFor(target);
      const where = { providerId: target.id, provider: target.provider, model: target.model };
      if (!client) {
        this.options.logger.warn({ ...where, apiKeyEnvVar: target.apiKeyEnvVar }, 'AI provider skipped: its API key variable is not set');
        continue;
      }
      try {
        const completion = await this.systemFor(target.provider).run(
          { operation: 'chat.completions', idempotent: false },
          (signal) => client.chat.completions.create({ model: target.model, messages, ...(options.json ? { response_format: { type: 'json_object' as const } } : {}) }, { signal }),
          answeredStatus,
        );
        return { content: completion.choices[0]?.message?.content ?? '', providerId: target.id };
      } catch (error) {
        this.options.logger.warn({ ...where, reason: failureOf(error) }, 'AI provider failed; trying the next');
      }
    }
    return null;
  }

  private systemFor(family: ProviderFamily): OutsideSystem {
    let system = this.systems.get(family);
    if (!system) {
      system = this.options.outside({ system: family, baseUrl: this.options.baseUrls[family], timeoutMs: this.options.timeoutMs, retry: { retries: 0 } });
      this.systems.set(family, system);
    }
    return system;
  }

  private clientFor(target: ProviderTarget): OpenAI | null {
    const apiKey = this.options.apiKeys[target.apiKeyEnvVar];
    if (!apiKey) return null;
    const cacheKey = `${target.provider} ${target.apiKeyEnvVar}`;
    let client = this.clients.get(cacheKey);
    if (!client) {
      // The SDK's own timeout a little past the outside client's deadline, which ends the call first.
      client = new OpenAI({ apiKey, baseURL: this.options.baseUrls[target.provider], timeout: this.options.timeoutMs + 1_000, maxRetries: 0 });
      this.clients.set(cacheKey, client);
    }
    return client;
  }
}

/** The HTTP status and headers of a provider's answer the SDK threw as an error; null when there was none. */
function answeredStatus(error: unknown): { status: number; headers?: Headers } | null {
  return error instanceof OpenAI.APIError && typeof error.status === 'number' ? { status: error.status, headers: error.headers } : null;
}
