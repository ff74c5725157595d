import { describe, expect, it } from 'vitest';
import { identityEnv } from '@bo/platform/testing/identity';
import { loadAiChatConfig } from '../src/config';

const base = { ...identityEnv('ai-chat'), PRICING_URL: 'http://127.0.0.1:5101', PAYMENTS_URL: 'http://127.0.0.1:5103' };

describe('ai-chat configuration', () => {
  it("defaults to each family's public API, an 8 s timeout and port 5106", () => {
    expect(loadAiChatConfig(base)).toMatchObject({
      PORT: 5106,
      OPENAI_BASE_URL: 'https://api.openai.com/v1',
      GEMINI_BASE_URL: 'https://generativelanguage.googleapis.com/v1beta/openai',
      CLAUDE_BASE_URL: 'https://api.anthropic.com/v1',
      AI_TIMEOUT_MS: 8000,
      CHAT_REPLY_DEADLINE_MS: 7000,
      CHAT_BURST_MS: 2000,
      AI_API_KEYS: {},
    });
    expect(() => loadAiChatConfig({ ...base, AI_TIMEOUT_MS: '10' })).toThrow('AI_TIMEOUT_MS is invalid');
    expect(() => loadAiChatConfig({ ...base, OPENAI_BASE_URL: 'not a url' })).toThrow('OPENAI_BASE_URL is invalid');
    // ManyChat gives up at about 10 s: a reply may not wait past 8 s.
    expect(() => loadAiChatConfig({ ...base, CHAT_REPLY_DEADLINE_MS: '9000' })).toThrow('CHAT_REPLY_DEADLINE_MS is invalid');
  });

  it('keeps every *_API_KEY variable of the environment (trimmed, blank ones left out) for the provider rows to name, and nothing else', () => {
    const config = loadAiChatConfig({ ...base, OPENAI_API_KEY: ' sk-one ', TEAM_GEMINI_API_KEY: 'g-two', CLAUDE_API_KEY: '  ', OPENAI_KEY: 'not-a-key-variable', lower_api_key: 'x' });
    expect(config.AI_API_KEYS).toEqual({ OPENAI_API_KEY: 'sk-one', TEAM_GEMINI_API_KEY: 'g-two' });
  });
});
