import { asService } from '@bo/platform/testing/identity';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimulatorUrls } from '@bo/platform/service';
import { startTestSystem, type TestSystem } from '@bo/platform/testing/services';
import { listen } from '@bo/sim-kit';
import { buildOpenAiSimulator } from '@bo/sim-openai';
import aiChat from '../src/service';
import { aiJson, mail, UNSTARTED_PEERS } from './system';

const disneyMail = mail({ from: 'disneyplus@mail.disneyplus.com', subject: 'Disney+', text: 'Hi there! Here it is: 493810\nEnjoy watching.' });

describe("the embedded run's settings: every family at the one OpenAI simulator, with its default key", () => {
  const sim = buildOpenAiSimulator();
  let system: TestSystem;

  beforeAll(async () => {
    const url = await listen(sim.app);
    system = await startTestSystem('ai_chat_simulator_env', { services: ['ai-chat'] });
    await system.start(aiChat as never, { ...aiChat.simulatorEnv({ openai: url } as SimulatorUrls), ...UNSTARTED_PEERS });
    await system.call('ai-chat', 'POST', '/api/admin/ai-providers', { provider: 'gemini', model: 'gemini-2.5-flash', apiKeyEnvVar: 'GEMINI_API_KEY', priority: 1 });
    await system.call('ai-chat', 'POST', '/api/admin/ai-providers', { provider: 'claude', model: 'claude-haiku-4-5', apiKeyEnvVar: 'CLAUDE_API_KEY', priority: 2 });
  });
  afterAll(async () => {
    await system?.stop();
    await sim.app.close();
  });

  // The simulator answers as one provider at a time: the others' requests fail (wrong path or model) and the parser moves on.
  it.each([
    ['openai', 'gpt-4o-mini', ['/v1/chat/completions']],
    ['gemini', 'gemini-2.5-flash', ['/v1beta/openai/chat/completions', '/v1/chat/completions']],
    ['anthropic', 'claude-haiku-4-5', ['/v1/chat/completions', '/v1beta/openai/chat/completions', '/v1/chat/completions']],
  ] as const)('reaches the %s persona with its model', async (persona, model, paths) => {
    sim.state.reset();
    sim.state.options.persona = persona;
    sim.state.script.push(aiJson({ found: true, type: 'DP_OTP', code: '493810', links: [], blocked_type: null }));
    const { body } = await system.call('ai-chat', 'POST', '/api/ai-parser/test', { emailText: disneyMail.text, codeType: 'DP_OTP' });
    expect(body.data).toMatchObject({ found: true, code: '493810', source: 'ai' });
    expect(sim.state.attempts.map((attempt) => attempt.path)).toEqual(paths);
    expect(sim.state.chatRequests.map((request) => request.model)).toEqual([model]);
  });

  it('says the providers are set up and simulated', async () => {
    const gateway = asService('gateway');
    const { body } = await system.call('ai-chat', 'GET', '/internal/ai-chat/config-status', undefined, gateway);
    expect(body.items.map((item: any) => [item.name, item.configured, item.simulated])).toEqual([
      ['AI provider for the e-mail parser (enabled, with its API key set)', true, true],
      ['OpenAI API', true, true],
      ['Gemini API', true, true],
      ['Claude API', true, true],
    ]);
  });
});
