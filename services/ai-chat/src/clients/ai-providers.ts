import OpenAI from 'openai';
import type { Logger } from '@bo/platform';
import { OutsideCallError, type OutsideOptions, type OutsideSystem, type Pace } from '@bo/platform/outside';
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

/**
 * The embeddings model each family is asked with. Only OpenAI's: vectors of different models are
 * not comparable, so one model makes them all (Gemini's OpenAI-compatible API has only its own
 * model, and Anthropic's has no embeddings).
 */
export const EMBEDDING_MODELS: Partial<Record<ProviderFamily, string>> = { openai: 'text-embedding-3-small' };
export const EMBEDDING_DIMENSIONS = 1536;

/**
 * The first provider's vectors (one per text, in order, each EMBEDDING_DIMENSIONS float32 values),
 * or, when none made them, why in plain words (never a key): `errors` holds each failure.
 */
export type EmbeddingsAnswer =
  | { ok: true; vectors: Float32Array[]; model: string; providerId: number }
  | { ok: false; reason: string; errors: unknown[] };

export interface AiProvidersOptions {
  baseUrls: Record<ProviderFamily, string>;
  /** The environment's `*_API_KEY` variables, by name. */
  apiKeys: Record<string, string>;
  timeoutMs: number;
  /** Each key's share of its provider, every replica together (AI_REQUESTS_PER_MINUTE). */
  requestsPerMinute: number;
  logger: Logger;
  /** The service's outside systems (ServiceContext's `outside`): one per family. */
  outside: (options: OutsideOptions) => OutsideSystem;
}

/** A chat question waits this long at most for its key's turn, then asks the next provider (a customer is waiting). */
const CHAT_PACE_WAIT_MS = 1_000;
/** Embeddings are made by a run: they may wait longer for the key's turn. */
const EMBEDDINGS_PACE_WAIT_MS = 10_000;

/** Why a provider did not answer, for the log: never the key, nor the provider's message (it may quote part of the key). */
function failureOf(error: unknown): string {
  if (error instanceof OutsideCallError) {
    if (error.failure === 'timeout') return 'timed out';
    if (error.failure === 'unreachable') return 'could not connect';
    if (error.failure === 'breaker_open') return 'paused after repeated failures';
    if (error.failure === 'abandoned') return 'did not answer before the caller stopped waiting';
    if (error.failure === 'paced') return "had no turn left in its key's requests a minute (AI_REQUESTS_PER_MINUTE)";
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
 * deadline, a breaker per family, a pace per key shared by every replica, and the metrics. Nothing retries (the SDK's maxRetries 0, the
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
          { operation: 'chat.completions', idempotent: false, pace: this.paceOf(target, CHAT_PACE_WAIT_MS) },
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

  /** The providers that can make embeddings (their family has an embeddings model), in the order given, keys set or not. */
  embeddingTargets(providers: ProviderTarget[]): ProviderTarget[] {
    return providers.filter((target) => EMBEDDING_MODELS[target.provider] !== undefined);
  }

  /**
   * Embeds texts with the first provider in the order given that makes them: as `chat`, a
   * provider without its key is skipped and any failure moves on to the next; families without
   * an embeddings model (EMBEDDING_MODELS) are not asked. `signal` ends the call (and asks no
   * further provider) when the caller stops waiting.
   */
  async embed(providers: ProviderTarget[], texts: string[], signal?: AbortSignal): Promise<EmbeddingsAnswer> {
    const capable = this.embeddingTargets(providers);
    if (capable.length === 0) return { ok: false, reason: 'no enabled AI provider makes embeddings (only OpenAI providers do, with text-embedding-3-small)', errors: [] };
    const failures: string[] = [];
    const errors: unknown[] = [];
    for (const target of capable) {
      const model = EMBEDDING_MODELS[target.provider]!;
      const client = this.clientFor(target);
      const where = { providerId: target.id, provider: target.provider, model };
      if (!client) {
        failures.push(`the key variable ${target.apiKeyEnvVar} of ${target.provider} provider ${target.id} is not set`);
        continue;
      }
      try {
        const answer = await this.systemFor(target.provider).run(
          { operation: 'embeddings', idempotent: true, signal, pace: this.paceOf(target, EMBEDDINGS_PACE_WAIT_MS) },
          // base64: the float32 bytes as they are kept, and the SDK leaves them undecoded.
          (deadline) => client.embeddings.create({ model, input: texts, dimensions: EMBEDDING_DIMENSIONS, encoding_format: 'base64' }, { signal: deadline }),
          answeredStatus,
        );
        const vectors = [...answer.data].sort((a, b) => a.index - b.index).map((item) => vectorOf(item.embedding as unknown));
        const wrong = vectors.find((vector) => vector.length !== EMBEDDING_DIMENSIONS);
        if (vectors.length !== texts.length || wrong) throw new Error(`answered ${vectors.length} vectors of ${wrong?.length ?? EMBEDDING_DIMENSIONS} values for ${texts.length} texts`);
        return { ok: true, vectors, model, providerId: target.id };
      } catch (error) {
        const reason = error instanceof OutsideCallError || error instanceof OpenAI.APIError ? failureOf(error) : (error as Error).message;
        this.options.logger.warn({ ...where, reason }, 'AI provider failed to make embeddings; trying the next');
        failures.push(`${target.provider} provider ${target.id} ${reason}`);
        errors.push(error);
        if (signal?.aborted) break;
      }
    }
    return { ok: false, reason: failures.join('; '), errors };
  }

  /** The key's pace, named by its family and variable (never the key): a second's share may go at once. */
  private paceOf(target: ProviderTarget, maxWaitMs: number): Pace {
    const perSecond = this.options.requestsPerMinute / 60;
    return { bucket: 'requests', account: `${target.provider}:${target.apiKeyEnvVar}`, perSecond, burst: Math.max(1, Math.ceil(perSecond)), maxWaitMs };
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

/** A vector as the API sent it: base64 of little-endian float32 values (what we ask for), or numbers. */
function vectorOf(embedding: unknown): Float32Array {
  if (Array.isArray(embedding)) return Float32Array.from(embedding as number[]);
  if (typeof embedding !== 'string') throw new Error('answered an embedding that is neither base64 nor numbers');
  const bytes = Buffer.from(embedding, 'base64');
  if (bytes.length % 4 !== 0) throw new Error('answered an embedding whose bytes are not float32 values');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return Float32Array.from({ length: bytes.length / 4 }, (_, i) => view.getFloat32(i * 4, true));
}
