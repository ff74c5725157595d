import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { describeOutcome } from '../src/domain/result-texts';
import type { RunningService } from '@bo/platform/service';
import { aiJson, asStreamingKeys, mail, startAiChatSystem, type AiChatSystem } from './system';

const TIMEOUT_MS = 400;

/** A Disney+ mail the expressions read nothing from, so every parse below asks the AI. */
const disneyMail = mail({ from: 'disneyplus@mail.disneyplus.com', subject: 'Disney+', text: 'Hi there! Here it is: 493810\nEnjoy watching.' });
const answer = aiJson({ found: true, type: 'DP_OTP', code: '493810', links: [], blocked_type: null });
const foundByAi = { result: { found: true, code: '493810', outcome: 'found', source: 'ai' }, cacheable: true };
const passwordReset = mail({ from: 'disneyplus@mail.disneyplus.com', subject: 'Reset your Disney+ password', text: 'We received a request to reset your password. Code: 771234' }, 0);

describe('AI provider fallback (priority order, the next provider on any failure)', () => {
  let s: AiChatSystem;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    s = await startAiChatSystem('ai_chat_provider_fallback', { env: { AI_TIMEOUT_MS: String(TIMEOUT_MS), WRONG_API_KEY: 'sk-not-the-simulators-key' } });
    const [openai] = (await s.call('GET', '/api/admin/ai-providers')).body.data;
    ids.openai = openai.id;
    ids.gemini = (await s.call('POST', '/api/admin/ai-providers', { provider: 'gemini', model: 'gemini-2.5-flash', apiKeyEnvVar: 'GEMINI_API_KEY', priority: 1 })).body.data.id;
    ids.claude = (await s.call('POST', '/api/admin/ai-providers', { provider: 'claude', model: 'claude-haiku-4-5', apiKeyEnvVar: 'CLAUDE_API_KEY', priority: 2 })).body.data.id;
  });
  afterAll(() => s?.stop());
  beforeEach(async () => {
    await s.resetSimulators();
    for (const sim of Object.values(s.sims)) await sim.control('rules', { contains: 'DP_OTP', reply: answer });
    // Each test starts from openai 0, gemini 1, claude 2, all enabled with their keys.
    await s.aiChat.prisma.aiProvider.deleteMany({ where: { id: { notIn: Object.values(ids) } } });
    for (const [family, priority] of [['openai', 0], ['gemini', 1], ['claude', 2]] as const) {
      await s.call('PUT', `/api/admin/ai-providers/${ids[family]}`, { priority, enabled: true, apiKeyEnvVar: `${family.toUpperCase()}_API_KEY` });
    }
  });

  const parse = async () => (await s.parse('DP_OTP', [disneyMail])).body;
  const asked = async () => ({
    openai: (await s.sims.openai.attempts()).length,
    gemini: (await s.sims.gemini.attempts()).length,
    claude: (await s.sims.claude.attempts()).length,
  });

  it('asks only the first provider when it answers', async () => {
    expect(await parse()).toMatchObject(foundByAi);
    expect(await asked()).toEqual({ openai: 1, gemini: 0, claude: 0 });
    expect((await s.sims.openai.chatRequests())[0].model).toBe('gpt-4o-mini');
  });

  for (const kind of ['rate_limit', 'server_error', 'overloaded'] as const) {
    it(`moves on to the second provider when the first answers ${kind}`, async () => {
      await s.sims.openai.control('errors', { kind, times: 1 });
      expect(await parse()).toMatchObject(foundByAi);
      expect(await asked()).toEqual({ openai: 1, gemini: 1, claude: 0 });
      expect((await s.sims.gemini.chatRequests())[0].model).toBe('gemini-2.5-flash');
    });
  }

  it('moves on when the first provider is slower than AI_TIMEOUT_MS, without waiting for it', async () => {
    // openai holds its answer until the parse has answered: gemini's answer did not wait for it.
    const { faults: [held] } = (await s.sims.openai.control('faults', { kind: 'hold', times: 1 })) as { faults: { id: number }[] };
    expect(await parse()).toMatchObject(foundByAi);
    expect(await asked()).toEqual({ openai: 1, gemini: 1, claude: 0 });
    expect(await s.sims.openai.control('faults/release', { id: held.id })).toEqual({ released: 1 });
  });

  it('moves on when the first provider refuses its key (401)', async () => {
    await s.call('PUT', `/api/admin/ai-providers/${ids.openai}`, { apiKeyEnvVar: 'WRONG_API_KEY' });
    expect(await parse()).toMatchObject(foundByAi);
    expect(await asked()).toEqual({ openai: 1, gemini: 1, claude: 0 });
  });

  it('moves on when the first provider is unreachable', async () => {
    await s.sims.openai.control('faults', { kind: 'drop', times: 1 });
    expect(await parse()).toMatchObject(foundByAi);
    expect(await asked()).toEqual({ openai: 1, gemini: 1, claude: 0 });
  });

  it('when every provider fails: unavailable, and not to be remembered', async () => {
    await s.sims.openai.control('errors', { kind: 'server_error' });
    await s.sims.gemini.control('errors', { kind: 'rate_limit' });
    await s.sims.claude.control('errors', { kind: 'overloaded' });
    expect(await parse()).toEqual({
      result: { found: false, ...describeOutcome('unavailable', 'DP_OTP', null), code: null, links: [], buttons: [], outcome: 'unavailable', approvalLinks: [], denialLinks: [], blockedType: null, source: 'none' },
      cacheable: false,
    });
    expect(await asked()).toEqual({ openai: 1, gemini: 1, claude: 1 });
    // With a blocked mail seen, the refusal says why, still not to be remembered.
    const withBlocked = (await s.parse('DP_OTP', [passwordReset, disneyMail])).body;
    expect(withBlocked).toMatchObject({ result: { outcome: 'blocked', blockedType: 'PASSWORD_RESET', found: false }, cacheable: false });
  });

  it('skips a disabled provider', async () => {
    await s.call('PUT', `/api/admin/ai-providers/${ids.openai}`, { enabled: false });
    expect(await parse()).toMatchObject(foundByAi);
    expect(await asked()).toEqual({ openai: 0, gemini: 1, claude: 0 });
  });

  it('tries providers by priority, 0 first, then the oldest row', async () => {
    await s.call('PUT', `/api/admin/ai-providers/${ids.claude}`, { priority: 0 });
    await s.call('PUT', `/api/admin/ai-providers/${ids.openai}`, { priority: 5 });
    await s.sims.claude.control('errors', { kind: 'server_error', times: 1 });
    expect(await parse()).toMatchObject(foundByAi);
    // claude (0) failed, gemini (1) answered, openai (5) never asked.
    expect(await asked()).toEqual({ openai: 0, gemini: 1, claude: 1 });

    await s.resetSimulators();
    await s.sims.gemini.control('rules', { contains: 'DP_OTP', reply: answer });
    await s.call('PUT', `/api/admin/ai-providers/${ids.gemini}`, { priority: 0 });
    // gemini and claude both 0: gemini's row is older.
    expect(await parse()).toMatchObject(foundByAi);
    expect(await asked()).toEqual({ openai: 0, gemini: 1, claude: 0 });
  });

  it('skips a provider whose key variable is not set, without a request', async () => {
    await s.call('POST', '/api/admin/ai-providers', { provider: 'openai', model: 'gpt-4o', apiKeyEnvVar: 'MISSING_API_KEY', priority: 0 });
    await s.call('PUT', `/api/admin/ai-providers/${ids.openai}`, { priority: 3 });
    expect(await parse()).toMatchObject(foundByAi);
    expect(await asked()).toEqual({ openai: 0, gemini: 1, claude: 0 });
  });

  it('with no provider able to answer, asks nothing and says unavailable', async () => {
    for (const id of Object.values(ids)) await s.call('PUT', `/api/admin/ai-providers/${id}`, { enabled: false });
    expect(await parse()).toMatchObject({ result: { outcome: 'unavailable', source: 'none' }, cacheable: false });
    expect(await asked()).toEqual({ openai: 0, gemini: 0, claude: 0 });
  });

  // Last in this file: the breaker it opens keeps openai away for its pause.
  it('stops asking a provider that failed five times in a row (its breaker), and shows it on /metrics', async () => {
    await s.sims.openai.control('errors', { kind: 'server_error' });
    for (let n = 0; n < 6; n++) expect(await parse()).toMatchObject(foundByAi);
    // Earlier tests' failures may have counted towards the five in a row: it opened within these six.
    const { openai, gemini } = await asked();
    expect(gemini).toBe(6);
    expect(openai).toBeLessThanOrEqual(5);
    // Open: the next parse goes straight to gemini, with no request to openai (so nothing to wait for).
    expect(await parse()).toMatchObject(foundByAi);
    expect(await asked()).toEqual({ openai, gemini: 7, claude: 0 });
    const metrics = (await s.aiChat.app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(metrics).toMatch(/^outside_breaker_state\{system="openai",service="ai-chat"\} 2$/m);
    expect(metrics).toMatch(/^outside_call_duration_seconds_count\{service="ai-chat",system="openai",operation="chat.completions",outcome="breaker_open"\} [1-9]\d*$/m);
    expect(metrics).toMatch(/^outside_call_duration_seconds_count\{service="ai-chat",system="gemini",operation="chat.completions",outcome="ok"\} [1-9]\d*$/m);
  });

});

// Issue 20: a provider counts a key's requests whichever process makes them. The replicas share
// each key's pace in Redis (AI_REQUESTS_PER_MINUTE); a question that would wait past its turn goes
// to the next provider instead of past the key's limit.
describe("a provider key's requests a minute, shared by every replica", () => {
  let s: AiChatSystem;
  let replica: RunningService;

  beforeAll(async () => {
    // 60 a minute: one at once, then one a second, for openai's key as for every key.
    s = await startAiChatSystem('ai_chat_provider_pace', { env: { AI_REQUESTS_PER_MINUTE: '60' } });
    await s.call('POST', '/api/admin/ai-providers', { provider: 'gemini', model: 'gemini-2.5-flash', apiKeyEnvVar: 'GEMINI_API_KEY', priority: 1 });
    for (const sim of Object.values(s.sims)) await sim.control('rules', { contains: 'DP_OTP', reply: answer });
    replica = await s.system.replica('ai-chat');
  });
  afterAll(() => s?.stop());

  it('lets each key make at most its share across two replicas at once, sends the rest to the next provider, and says unavailable past them all', async () => {
    const parseOn = (process_: RunningService) =>
      process_.app.inject({ method: 'POST', url: '/internal/email-parser/parse', payload: { codeType: 'DP_OTP', mails: [disneyMail] }, headers: asStreamingKeys });
    const replies = (await Promise.all(Array.from({ length: 8 }, (_, n) => parseOn(n % 2 === 0 ? s.aiChat : replica)))).map((reply) => reply.json());
    const openai = (await s.sims.openai.attempts()).length;
    const gemini = (await s.sims.gemini.attempts()).length;
    // Per key, one at once and one a second later (a question waits a second at most): two, whichever
    // replica asked. Two paces of their own would have let four through each.
    for (const asked of [openai, gemini]) {
      expect(asked).toBeGreaterThanOrEqual(1);
      expect(asked).toBeLessThanOrEqual(2);
    }
    expect(replies.filter((reply) => reply.result.source === 'ai')).toHaveLength(openai + gemini);
    for (const reply of replies.filter((one) => one.result.source !== 'ai')) expect(reply).toMatchObject({ result: { found: false, outcome: 'unavailable' }, cacheable: false });
    const paced = async (process_: RunningService, system: string) =>
      Number(new RegExp(`^outside_call_duration_seconds_count\\{service="ai-chat",system="${system}",operation="chat.completions",outcome="paced"\\} (\\d+)$`, 'm').exec((await process_.app.inject({ method: 'GET', url: '/metrics' })).body)?.[1] ?? 0);
    expect((await paced(s.aiChat, 'openai')) + (await paced(replica, 'openai'))).toBe(8 - openai);
    expect((await paced(s.aiChat, 'gemini')) + (await paced(replica, 'gemini'))).toBe(8 - openai - gemini);
  });
});
