import { asService } from '@bo/platform/testing/identity';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedAs } from '@bo/platform/testing/services';
import { aiChatRoutes, blockedCodeTypes, routesOwnedBy } from '@bo/proto';
import { DEFAULT_EMAIL_PARSER_PROMPT } from '../src/domain/parser-prompt';
import { SIMULATOR_AI_API_KEY } from '../src/service';
import { asStreamingKeys, startAiChatSystem, type AiChatSystem } from './system';

const customer = signedAs({ kind: 'customer', userId: null, email: 'c@example.mn', isAdmin: false, keyId: '1' });

describe('ai-chat admin routes: prompts, the e-mail parser prompt, providers', () => {
  let s: AiChatSystem;

  beforeAll(async () => {
    s = await startAiChatSystem('ai_chat_admin_routes', { env: { SPARE_API_KEY: '   ' } });
  });
  afterAll(() => s?.stop());

  it('serves every route its contracts declare; people need to be admins, the parse is for services only', async () => {
    const routes = routesOwnedBy('ai-chat');
    expect(routes).toEqual(expect.arrayContaining(aiChatRoutes));
    for (const contract of routes) expect(s.aiChat.app.hasRoute({ method: contract.method, url: contract.path }), `${contract.method} ${contract.path}`).toBe(true);
    expect((await s.call('GET', '/api/admin/prompts', undefined, customer)).status).toBe(403);
    expect((await s.call('GET', '/api/admin/ai-providers', undefined, {})).status).toBe(401);
    expect((await s.call('POST', '/api/ai-parser/test', { emailText: 'x', codeType: 'DP_OTP' }, customer)).status).toBe(403);
    expect((await s.call('POST', '/internal/email-parser/parse', { codeType: 'DP_OTP', mails: [] })).status).toBe(403);
    expect((await s.call('POST', '/internal/email-parser/parse', { codeType: 'DP_OTP', mails: [] }, asStreamingKeys)).status).toBe(200);
  });

  it('creates, lists, changes and deletes prompts; a duplicate promptId is a 409, an unknown one a 404', async () => {
    const created = await s.call('POST', '/api/admin/prompts', { promptId: 'price_answer', name: 'Price answers', content: 'Answer with the price list only.' });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({ success: true, data: { id: expect.any(Number), promptId: 'price_answer', name: 'Price answers', content: 'Answer with the price list only.', updatedAt: expect.any(String) } });

    const duplicate = await s.call('POST', '/api/admin/prompts', { promptId: 'price_answer', name: 'Again', content: 'Other' });
    expect(duplicate).toMatchObject({ status: 409, body: { error: 'A prompt with this ID already exists' } });

    const changed = await s.call('PUT', '/api/admin/prompts/price_answer', { content: 'Answer briefly.' });
    expect(changed.body.data).toMatchObject({ promptId: 'price_answer', name: 'Price answers', content: 'Answer briefly.' });
    expect(Date.parse(changed.body.data.updatedAt)).toBeGreaterThanOrEqual(Date.parse(created.body.data.updatedAt));
    expect((await s.call('GET', '/api/admin/prompts')).body.data.map((p: any) => [p.promptId, p.content])).toEqual([['price_answer', 'Answer briefly.']]);

    expect(await s.call('PUT', '/api/admin/prompts/nothing_here', { content: 'x' })).toMatchObject({ status: 404, body: { error: 'Prompt not found' } });
    expect((await s.call('DELETE', '/api/admin/prompts/price_answer')).body).toEqual({ success: true });
    expect(await s.call('DELETE', '/api/admin/prompts/price_answer')).toMatchObject({ status: 404, body: { error: 'Prompt not found' } });
    expect((await s.call('GET', '/api/admin/prompts')).body.data).toEqual([]);
  });

  it('refuses a prompt without every field, and a change without content, with the page texts', async () => {
    const missing = await s.call('POST', '/api/admin/prompts', { promptId: ' ', name: 'n', content: 'c' });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toContain('Please fill in all fields.');
    for (const body of [{ name: 'n', content: 'c' }, { promptId: 'p', name: '', content: 'c' }, { promptId: 'p', name: 'n' }]) {
      const reply = await s.call('POST', '/api/admin/prompts', body);
      expect([reply.status, reply.body.details[0].message]).toEqual([400, 'Please fill in all fields.']);
    }
    const empty = await s.call('PUT', '/api/admin/prompts/anything', { content: '  ' });
    expect([empty.status, empty.body.details[0].message]).toEqual([400, 'Content is required']);
  });

  it("has no e-mail parser prompt until one is saved (404 at both keys), offers a Mongolian default that names the blocked kinds, then serves the saved one at both keys, also after a restart", async () => {
    for (const key of ['email_parser', 'email_parser_prompt']) {
      expect(await s.call('GET', `/api/system-prompts/${key}`)).toMatchObject({ status: 404, body: { error: 'No email parser prompt saved' } });
    }
    const fallback = await s.call('GET', '/api/system-prompts/email_parser/default');
    expect(fallback.body).toEqual({ key: 'email_parser', name: 'Email parser', content: DEFAULT_EMAIL_PARSER_PROMPT, updatedAt: null });
    expect(fallback.body.content).toMatch(/[А-Яа-яӨөҮү]{5,}/);
    for (const kind of blockedCodeTypes) expect(fallback.body.content).toContain(kind);
    expect(fallback.body.content).toContain('JSON');

    const saved = await s.call('PUT', '/api/system-prompts/email_parser', { content: 'Кодыг олж JSON-оор хариул.' });
    expect(saved.body).toEqual({ success: true, data: { key: 'email_parser', name: 'Email parser', content: 'Кодыг олж JSON-оор хариул.', updatedAt: expect.any(String) } });
    expect((await s.call('GET', '/api/system-prompts/email_parser_prompt')).body).toEqual(saved.body.data);

    // The parser page's Save System Prompt writes the same row, with its name.
    const renamed = await s.call('PUT', '/api/system-prompts/email_parser_prompt', { name: 'Код задлагч', content: 'Шинэ заавар. JSON.' });
    expect(renamed.body.data).toMatchObject({ key: 'email_parser', name: 'Код задлагч', content: 'Шинэ заавар. JSON.' });
    // A save without a name keeps the name it has.
    await s.call('PUT', '/api/system-prompts/email_parser', { content: 'Гурав дахь заавар. JSON.' });
    expect(await s.call('PUT', '/api/system-prompts/email_parser', { content: ' ' })).toMatchObject({ status: 400 });
    expect((await s.call('GET', '/api/admin/prompts')).body.data.map((p: any) => [p.promptId, p.name, p.content])).toEqual([['email_parser', 'Код задлагч', 'Гурав дахь заавар. JSON.']]);

    await s.restart();
    expect((await s.call('GET', '/api/system-prompts/email_parser')).body).toMatchObject({ key: 'email_parser', name: 'Код задлагч', content: 'Гурав дахь заавар. JSON.' });
  });

  it('starts with the seeded OpenAI provider, adds, changes and deletes providers, says whether each key variable is set and never shows a key', async () => {
    const first = await s.call('GET', '/api/admin/ai-providers');
    expect(first.body).toEqual({ success: true, data: [{ id: expect.any(Number), provider: 'openai', model: 'gpt-4o-mini', apiKeyEnvVar: 'OPENAI_API_KEY', priority: 0, enabled: true, apiKeyPresent: true }] });

    // The page parses the typed priority: the API takes a number, never its text.
    expect((await s.call('POST', '/api/admin/ai-providers', { provider: 'gemini', model: 'gemini-2.5-flash', apiKeyEnvVar: 'GEMINI_API_KEY', priority: '2' })).body.error).toBe('Invalid body: priority: Priority must be a whole number');
    const gemini = await s.call('POST', '/api/admin/ai-providers', { provider: 'gemini', model: 'gemini-2.5-flash', apiKeyEnvVar: 'GEMINI_API_KEY', priority: 2 });
    expect(gemini.body.data).toMatchObject({ provider: 'gemini', priority: 2, enabled: true, apiKeyPresent: true });
    // Set but blank is not set; never set is not set.
    const spare = await s.call('POST', '/api/admin/ai-providers', { provider: 'claude', model: 'claude-haiku-4-5', apiKeyEnvVar: 'SPARE_API_KEY', priority: 1, enabled: false });
    expect(spare.body.data).toMatchObject({ provider: 'claude', priority: 1, enabled: false, apiKeyPresent: false });
    const unknown = await s.call('POST', '/api/admin/ai-providers', { provider: 'claude', model: 'claude-sonnet-4-5', apiKeyEnvVar: 'NEVER_SET_API_KEY' });
    expect(unknown.body.data).toMatchObject({ priority: 0, enabled: true, apiKeyPresent: false });

    const listed = await s.call('GET', '/api/admin/ai-providers');
    expect(listed.body.data.map((p: any) => `${p.apiKeyEnvVar}:${p.priority}`)).toEqual(['OPENAI_API_KEY:0', 'NEVER_SET_API_KEY:0', 'SPARE_API_KEY:1', 'GEMINI_API_KEY:2']);
    expect(JSON.stringify(listed.body)).not.toContain(SIMULATOR_AI_API_KEY);

    // The list's switch sends only enabled.
    const switched = await s.call('PUT', `/api/admin/ai-providers/${spare.body.data.id}`, { enabled: true });
    expect(switched.body.data).toMatchObject({ enabled: true, model: 'claude-haiku-4-5', priority: 1 });
    const edited = await s.call('PUT', `/api/admin/ai-providers/${gemini.body.data.id}`, { model: 'gemini-2.5-pro', priority: 0 });
    expect(edited.body.data).toMatchObject({ model: 'gemini-2.5-pro', priority: 0, enabled: true });
    expect(await s.call('PUT', '/api/admin/ai-providers/999999', { enabled: false })).toMatchObject({ status: 404, body: { error: 'AI provider not found' } });

    expect((await s.call('DELETE', `/api/admin/ai-providers/${unknown.body.data.id}`)).body).toEqual({ success: true });
    expect((await s.call('DELETE', `/api/admin/ai-providers/${unknown.body.data.id}`)).status).toBe(404);
    await s.restart();
    expect((await s.call('GET', '/api/admin/ai-providers')).body.data.map((p: any) => `${p.provider}:${p.model}:${p.priority}:${p.enabled}`)).toEqual([
      'openai:gpt-4o-mini:0:true',
      'gemini:gemini-2.5-pro:0:true',
      'claude:claude-haiku-4-5:1:true',
    ]);
  });

  it('refuses a provider with a bad family, a key value in place of a variable name, or a bad priority, saying which', async () => {
    const refusals = await Promise.all([
      s.call('POST', '/api/admin/ai-providers', { provider: 'mistral', model: 'm', apiKeyEnvVar: 'OPENAI_API_KEY' }),
      s.call('POST', '/api/admin/ai-providers', { provider: 'openai', model: 'gpt-4o', apiKeyEnvVar: 'sk-proj-abc123' }),
      s.call('POST', '/api/admin/ai-providers', { provider: 'openai', model: ' ', apiKeyEnvVar: 'OPENAI_API_KEY' }),
      s.call('POST', '/api/admin/ai-providers', { provider: 'openai', model: 'gpt-4o', apiKeyEnvVar: 'OPENAI_API_KEY', priority: -1 }),
      s.call('POST', '/api/admin/ai-providers', { provider: 'openai', model: 'gpt-4o', apiKeyEnvVar: 'OPENAI_API_KEY', priority: 1.5 }),
    ]);
    expect(refusals.map((reply) => [reply.status, reply.body.details[0].message])).toEqual([
      [400, 'Provider must be openai, gemini or claude'],
      [400, 'The API key variable must be an environment variable name ending in _API_KEY, like OPENAI_API_KEY'],
      [400, 'Model is required'],
      [400, 'Priority must be 0 or more'],
      [400, 'Priority must be a whole number'],
    ]);
  });

  it('tells the config-status page whether an enabled provider has its key, and that the base URLs are simulators', async () => {
    const gateway = asService('gateway');
    const items = (await s.call('GET', '/internal/ai-chat/config-status', undefined, gateway)).body.items;
    expect(items).toEqual([
      { name: 'AI provider for the e-mail parser (enabled, with its API key set)', category: 'AI', configured: true, simulated: true },
      { name: 'OpenAI API', category: 'AI', configured: true, simulated: true },
      { name: 'Gemini API', category: 'AI', configured: true, simulated: true },
      { name: 'Claude API', category: 'AI', configured: false, simulated: true },
    ]);
  });
});
