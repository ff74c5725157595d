import { asService } from '@bo/platform/testing/identity';
import type { RunningService } from '@bo/platform/service';
import { startTestSystem, type TestReply, type TestSystem } from '@bo/platform/testing/services';
import type { CodeType, ParserMail } from '@bo/proto';
import { listen } from '@bo/sim-kit';
import { buildOpenAiSimulator, type PersonaName } from '@bo/sim-openai';
import type { AiChatExposed } from '../src/app';
import type { ProviderFamily } from '../src/clients/ai-providers';
import type { PrismaClient } from '../src/generated/prisma/client';
import aiChat, { SIMULATOR_AI_API_KEY } from '../src/service';

export type AiChatService = RunningService<PrismaClient, AiChatExposed>;

/** One provider family's stand-in: the OpenAI simulator in that family's persona. */
export interface FamilySimulator {
  url: string;
  /** POST /__sim/<path> (script, rules, errors, faults, reset). */
  control(path: string, body: unknown): Promise<unknown>;
  /** GET /__sim/attempts: every request the API received, newest first (faulted ones too). */
  attempts(): Promise<{ path: string }[]>;
  /** GET /__sim/chat-requests: the chat bodies that reached the API, newest first. */
  chatRequests(): Promise<{ model: string; messages: { role: string; content: string }[]; response_format?: { type: string } }[]>;
}

export interface AiChatSystem {
  system: TestSystem;
  aiChat: AiChatService;
  /** OpenAI, Gemini and Claude, each its own simulator, so a test sees which provider was asked. */
  sims: Record<ProviderFamily, FamilySimulator>;
  /** A request to ai-chat as the gateway forwards it: as an admin unless `headers` say otherwise. */
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<TestReply>;
  /** POST /internal/email-parser/parse as streaming-keys calls it. */
  parse(codeType: CodeType, mails: ParserMail[]): Promise<TestReply>;
  /** Resets every simulator (faults, scripts, rules, what they received). */
  resetSimulators(): Promise<void>;
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/** streaming-keys' identity, signed afresh on each request. */
export const asStreamingKeys = asService('streaming-keys');

const personaOf: Record<ProviderFamily, { persona: PersonaName; prefix: string }> = {
  openai: { persona: 'openai', prefix: '/v1' },
  gemini: { persona: 'gemini', prefix: '/v1beta/openai' },
  claude: { persona: 'anthropic', prefix: '/v1' },
};

async function startFamilySimulator(family: ProviderFamily) {
  const sim = buildOpenAiSimulator({ persona: personaOf[family].persona });
  const url = await listen(sim.app);
  const request = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${url}/__sim/${path}`, { method, headers: body === undefined ? {} : { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    if (!response.ok) throw new Error(`simulator ${family} ${method} /__sim/${path} answered ${response.status}`);
    return response.json();
  };
  const handle: FamilySimulator = {
    url,
    control: (path, body) => request('POST', path, body),
    attempts: async () => ((await request('GET', 'attempts')) as { attempts: { path: string }[] }).attempts,
    chatRequests: async () => ((await request('GET', 'chat-requests')) as { requests: never[] }).requests,
  };
  return { sim, handle, baseUrl: `${url}${personaOf[family].prefix}` };
}

/** The chat's peers, not started in these tests: the parser and admin routes never call them. */
export const UNSTARTED_PEERS = { PRICING_URL: 'http://127.0.0.1:9', PAYMENTS_URL: 'http://127.0.0.1:9' };

/**
 * ai-chat as it runs in production (its PostgreSQL schema, Redis, RabbitMQ) against three
 * OpenAI-compatible simulators, one per provider family, each with its key set. `env` overrides
 * ai-chat's settings (a shorter AI_TIMEOUT_MS, another key variable).
 */
export async function startAiChatSystem(name: string, options: { env?: Record<string, string> } = {}): Promise<AiChatSystem> {
  const [openai, gemini, claude] = await Promise.all((['openai', 'gemini', 'claude'] as const).map(startFamilySimulator));
  const system = await startTestSystem(name, { services: ['ai-chat'] });
  const env = {
    OPENAI_BASE_URL: openai.baseUrl,
    GEMINI_BASE_URL: gemini.baseUrl,
    CLAUDE_BASE_URL: claude.baseUrl,
    OPENAI_API_KEY: SIMULATOR_AI_API_KEY,
    GEMINI_API_KEY: SIMULATOR_AI_API_KEY,
    CLAUDE_API_KEY: SIMULATOR_AI_API_KEY,
    AI_TIMEOUT_MS: '2000',
    ...UNSTARTED_PEERS,
    ...options.env,
  };
  const sims = { openai: openai.handle, gemini: gemini.handle, claude: claude.handle };
  const handle: AiChatSystem = {
    system,
    aiChat: await system.start<AiChatService>(aiChat as never, env),
    sims,
    call: (method, path, body, headers) => system.call('ai-chat', method, path, body, headers),
    parse: (codeType, mails) => system.call('ai-chat', 'POST', '/internal/email-parser/parse', { codeType, mails }, asStreamingKeys),
    async resetSimulators() {
      await Promise.all(Object.values(sims).map((sim) => sim.control('reset', {})));
    },
    async restart() {
      handle.aiChat = await system.restart<AiChatService>('ai-chat');
    },
    async stop() {
      await system.stop();
      await Promise.all([openai, gemini, claude].map(({ sim }) => sim.app.close()));
    },
  };
  return handle;
}

/** A mail as streaming-keys hands it over (newest first in a request). */
export function mail(fields: Partial<ParserMail> & Pick<ParserMail, 'from' | 'subject' | 'text'>, minutesAgo = 1): ParserMail {
  return { uid: 100 + minutesAgo, date: new Date(Date.now() - minutesAgo * 60_000).toISOString(), html: '', ...fields };
}

/** A scripted AI answer with the JSON the parser asks for. */
export const aiJson = (answer: Record<string, unknown>) => ({ content: JSON.stringify(answer) });
