import { fileURLToPath } from 'node:url';
import { defineService } from '@bo/platform/service';
import { buildAiChatApp } from './app';
import { aiChatEnvSchema } from './config';
import { PrismaClient } from './generated/prisma/client';

/** The OpenAI simulator's default key (simulators/openai/src/state.ts): what the embedded run uses. */
export const SIMULATOR_AI_API_KEY = 'sk-sim-test-key';

/** The ai-chat service, as every launcher starts it (see proto's service registry). */
export default defineService({
  name: 'ai-chat',
  configSchema: aiChatEnvSchema,
  prisma: PrismaClient,
  migrationsDir: fileURLToPath(new URL('../prisma/migrations', import.meta.url)),
  // Every family at the one OpenAI-compatible simulator: OpenAI's and Claude's under /v1, Gemini's under its /v1beta/openai.
  simulatorEnv: (simulators) => ({
    OPENAI_BASE_URL: `${simulators.openai}/v1`,
    GEMINI_BASE_URL: `${simulators.openai}/v1beta/openai`,
    CLAUDE_BASE_URL: `${simulators.openai}/v1`,
    OPENAI_API_KEY: SIMULATOR_AI_API_KEY,
    GEMINI_API_KEY: SIMULATOR_AI_API_KEY,
    CLAUDE_API_KEY: SIMULATOR_AI_API_KEY,
  }),
  deployment: {
    settings: { OPENAI_BASE_URL: 'https://api.openai.com/v1', GEMINI_BASE_URL: 'https://generativelanguage.googleapis.com/v1beta/openai', CLAUDE_BASE_URL: 'https://api.anthropic.com/v1' },
    secrets: { OPENAI_API_KEY: '<OpenAI API key>', GEMINI_API_KEY: '<Gemini API key>', CLAUDE_API_KEY: '<Anthropic API key>' },
  },
  build: buildAiChatApp,
});
