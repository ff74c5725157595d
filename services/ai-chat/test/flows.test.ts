import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedAs } from '@bo/platform/testing/services';
import { aiAdminRoutes, routesOwnedBy } from '@bo/proto';
import { flowMappingsStore } from '../src/store/flows-store';
import { startAiChatSystem, type AiChatSystem } from './system';

const customer = signedAs({ kind: 'customer', userId: null, email: 'c@example.mn', isAdmin: false, keyId: '1' });

describe('ai-chat /ai-admin flows: chat flows, flow mappings, the routing tester, the status card', () => {
  let s: AiChatSystem;

  beforeAll(async () => {
    s = await startAiChatSystem('ai_chat_flows', { env: { SPARE_API_KEY: '   ' } });
  });
  afterAll(() => s?.stop());

  const mapping = (fields: Record<string, unknown>) => s.call('POST', '/api/admin/flow-mappings', fields);
  const test = (productName: unknown) => s.call('POST', '/api/admin/flow-mappings/test', { productName });

  it('serves every route its contracts declare, to administrators only', async () => {
    expect(routesOwnedBy('ai-chat')).toEqual(expect.arrayContaining(aiAdminRoutes));
    for (const contract of aiAdminRoutes) {
      expect(s.aiChat.app.hasRoute({ method: contract.method, url: contract.path }), `${contract.method} ${contract.path}`).toBe(true);
      const path = contract.path.replace(':name', 'x').replace(':id', '1');
      expect((await s.call(contract.method, path, contract.method === 'GET' || contract.method === 'DELETE' ? undefined : {}, customer)).status, `${contract.method} ${path}`).toBe(403);
      expect((await s.call(contract.method, path, undefined, {})).status, `${contract.method} ${path}`).toBe(401);
    }
  });

  it('creates flows with trimmed values and a lowercase name, lists them by name, and deletes by name whatever its case', async () => {
    expect((await s.call('GET', '/api/admin/flows')).body).toEqual({ success: true, data: [] });

    const created = await s.call('POST', '/api/admin/flows', { name: '  Netflix_Renewal ', flowId: ' content20261126080000_123456 ', description: '  Netflix renewal questions  ' });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      success: true,
      data: { id: expect.any(Number), name: 'netflix_renewal', flowId: 'content20261126080000_123456', description: 'Netflix renewal questions', createdAt: expect.any(String) },
    });
    // The description is optional; a blank one is none.
    const bare = await s.call('POST', '/api/admin/flows', { name: 'ДУУСАХ_САНУУЛГА', flowId: 'content2' });
    expect(bare.body.data).toMatchObject({ name: 'дуусах_сануулга', flowId: 'content2', description: null });
    const blank = await s.call('POST', '/api/admin/flows', { name: 'Apple', flowId: 'content3', description: '   ' });
    expect(blank.body.data).toMatchObject({ name: 'apple', description: null });

    expect((await s.call('GET', '/api/admin/flows')).body.data.map((flow: any) => flow.name)).toEqual(['apple', 'netflix_renewal', 'дуусах_сануулга']);

    expect((await s.call('DELETE', '/api/admin/flows/NETFLIX_RENEWAL')).body).toEqual({ success: true });
    expect(await s.call('DELETE', '/api/admin/flows/netflix_renewal')).toMatchObject({ status: 404, body: { error: 'No flow named "netflix_renewal"' } });
    expect((await s.call('DELETE', `/api/admin/flows/${encodeURIComponent('Дуусах_Сануулга')}`)).body).toEqual({ success: true });
    expect(await s.call('DELETE', '/api/admin/flows/never_made')).toMatchObject({ status: 404, body: { error: 'No flow named "never_made"' } });
    expect((await s.call('GET', '/api/admin/flows')).body.data.map((flow: any) => flow.name)).toEqual(['apple']);
  });

  it('refuses a flow without a name or a flow id with the page text, and a second flow of one name (any case) with a 409', async () => {
    for (const body of [{ flowId: 'c' }, { name: '   ', flowId: 'c' }, { name: 'n' }, { name: 'n', flowId: '  ' }, {}, { name: null, flowId: 'c' }]) {
      const reply = await s.call('POST', '/api/admin/flows', body);
      expect([reply.status, reply.body.details[0].message], JSON.stringify(body)).toEqual([400, 'Both name and flow ID are required.']);
      expect(reply.body.error).toContain('Both name and flow ID are required.');
    }
    await s.call('POST', '/api/admin/flows', { name: 'spotify', flowId: 'content4' });
    const again = await s.call('POST', '/api/admin/flows', { name: ' SPOTIFY ', flowId: 'content5' });
    expect(again).toMatchObject({ status: 409, body: { error: 'A flow named "spotify" already exists' } });
    expect((await s.call('GET', '/api/admin/flows')).body.data.filter((flow: any) => flow.name === 'spotify').map((flow: any) => flow.flowId)).toEqual(['content4']);
  });

  it('lets exactly one of two simultaneous creates of one name win; the others are 409, never 500', async () => {
    const replies = await Promise.all(['Disney', 'disney', ' DISNEY ', 'Disney'].map((name, index) => s.call('POST', '/api/admin/flows', { name, flowId: `content-disney-${index}` })));
    expect(replies.map((reply) => reply.status).sort()).toEqual([200, 409, 409, 409]);
    for (const reply of replies.filter((r) => r.status === 409)) expect(reply.body.error).toBe('A flow named "disney" already exists');
    const winner = replies.find((reply) => reply.status === 200)!;
    const stored = (await s.call('GET', '/api/admin/flows')).body.data.filter((flow: any) => flow.name === 'disney');
    expect(stored).toEqual([winner.body.data]);
  });

  it('creates, lists in checking order, changes and deletes flow mappings; an unknown id is a 404', async () => {
    const created = await mapping({ matchType: 'keyword', matchValue: '  netflix ', flowNamespace: ' content_netflix ', flowName: ' netflix_renewal ' });
    expect(created.status).toBe(200);
    // Priority 0 and enabled unless sent.
    expect(created.body).toEqual({ success: true, data: { id: expect.any(Number), matchType: 'keyword', matchValue: 'netflix', flowNamespace: 'content_netflix', flowName: 'netflix_renewal', priority: 0, enabled: true } });
    const high = await mapping({ matchType: 'exact', matchValue: 'Netflix Premium - 1 сар', flowNamespace: 'content_premium', priority: 5, enabled: false });
    expect(high.body.data).toMatchObject({ matchType: 'exact', flowName: null, priority: 5, enabled: false });
    const low = await mapping({ matchType: 'keyword', matchValue: 'pubg', flowNamespace: 'content_pubg', flowName: '', priority: -3 });
    expect(low.body.data).toMatchObject({ flowName: null, priority: -3 });

    const ids = () => s.call('GET', '/api/admin/flow-mappings').then((reply) => reply.body.data.map((m: any) => m.id));
    expect(await ids()).toEqual([high.body.data.id, created.body.data.id, low.body.data.id]);

    // The edit dialog sends every field; enabling is its checkbox.
    const edited = await s.call('PUT', `/api/admin/flow-mappings/${high.body.data.id}`, { matchType: 'keyword', matchValue: 'premium', flowNamespace: 'content_premium2', flowName: 'premium', priority: -10, enabled: true });
    expect(edited.body).toEqual({ success: true, data: { id: high.body.data.id, matchType: 'keyword', matchValue: 'premium', flowNamespace: 'content_premium2', flowName: 'premium', priority: -10, enabled: true } });
    // A field left out stays; a blank flow name clears it.
    const partly = await s.call('PUT', `/api/admin/flow-mappings/${created.body.data.id}`, { flowName: '  ', priority: 1 });
    expect(partly.body.data).toEqual({ ...created.body.data, flowName: null, priority: 1 });
    expect(await ids()).toEqual([created.body.data.id, low.body.data.id, high.body.data.id]);

    expect(await s.call('PUT', '/api/admin/flow-mappings/999999', { enabled: false })).toMatchObject({ status: 404, body: { error: 'Flow mapping not found' } });
    expect((await s.call('DELETE', `/api/admin/flow-mappings/${low.body.data.id}`)).body).toEqual({ success: true });
    expect(await s.call('DELETE', `/api/admin/flow-mappings/${low.body.data.id}`)).toMatchObject({ status: 404, body: { error: 'Flow mapping not found' } });
    expect(await ids()).toEqual([created.body.data.id, high.body.data.id]);

    for (const id of await ids()) await s.call('DELETE', `/api/admin/flow-mappings/${id}`);
    expect((await s.call('GET', '/api/admin/flow-mappings')).body).toEqual({ success: true, data: [] });
  });

  it('refuses a mapping without a match value or flow namespace with the page text, and a bad type or priority saying which', async () => {
    const missing = [
      { matchType: 'exact', flowNamespace: 'ns' },
      { matchType: 'exact', matchValue: '  ', flowNamespace: 'ns' },
      { matchType: 'exact', matchValue: 'v' },
      { matchType: 'keyword', matchValue: 'v', flowNamespace: '' },
      {},
    ];
    for (const body of missing) {
      const reply = await mapping(body);
      expect([reply.status, reply.body.details[0].message], JSON.stringify(body)).toEqual([400, 'Match value and flow namespace are required.']);
      expect(reply.body.error).toContain('Match value and flow namespace are required.');
    }
    const created = await mapping({ matchType: 'exact', matchValue: 'v', flowNamespace: 'ns' });
    const blanked = await s.call('PUT', `/api/admin/flow-mappings/${created.body.data.id}`, { matchValue: ' ' });
    expect([blanked.status, blanked.body.details[0].message]).toEqual([400, 'Match value and flow namespace are required.']);
    const noNamespace = await s.call('PUT', `/api/admin/flow-mappings/${created.body.data.id}`, { flowNamespace: '' });
    expect([noNamespace.status, noNamespace.body.details[0].message]).toEqual([400, 'Match value and flow namespace are required.']);

    const refusals = await Promise.all([
      mapping({ matchType: 'regex', matchValue: 'v', flowNamespace: 'ns' }),
      mapping({ matchValue: 'v', flowNamespace: 'ns' }),
      mapping({ matchType: 'exact', matchValue: 'v', flowNamespace: 'ns', priority: '2' }),
      mapping({ matchType: 'exact', matchValue: 'v', flowNamespace: 'ns', priority: 1.5 }),
      mapping({ matchType: 'exact', matchValue: 'v', flowNamespace: 'ns', priority: 1001 }),
      mapping({ matchType: 'exact', matchValue: 'v', flowNamespace: 'ns', enabled: 'yes' }),
    ]);
    expect(refusals.map((reply) => [reply.status, reply.body.details[0].message])).toEqual([
      [400, 'Match type must be exact or keyword'],
      [400, 'Match type must be exact or keyword'],
      [400, 'Priority must be a whole number'],
      [400, 'Priority must be a whole number'],
      [400, 'Priority must be a whole number from -1000 to 1000'],
      [400, 'Enabled must be true or false'],
    ]);
    expect((await s.call('DELETE', `/api/admin/flow-mappings/${created.body.data.id}`)).status).toBe(200);
    expect((await s.call('GET', '/api/admin/flow-mappings')).body.data).toEqual([]);
  });

  it('tests routing: higher priority first, exact against keyword, case and spaces ignored, disabled mappings never, and nothing matched as nulls', async () => {
    expect(await test('Netflix Premium - 1 сар')).toMatchObject({ status: 200, body: { matched: false, matchType: null, flowNamespace: null, mapping: null } });

    const keyword = (await mapping({ matchType: 'keyword', matchValue: 'netflix', flowNamespace: 'ns_netflix', flowName: 'netflix', priority: 1 })).body.data;
    const exact = (await mapping({ matchType: 'exact', matchValue: 'Netflix Premium - 1 сар', flowNamespace: 'ns_premium_1', flowName: 'premium_1', priority: 5 })).body.data;
    const disabled = (await mapping({ matchType: 'keyword', matchValue: 'premium', flowNamespace: 'ns_off', priority: 100, enabled: false })).body.data;
    await mapping({ matchType: 'keyword', matchValue: 'сар', flowNamespace: 'ns_month', priority: 0 });

    // The exact mapping (priority 5) is checked before the keyword one (priority 1), and matches whatever the case and surrounding spaces.
    expect((await test('  NETFLIX premium - 1 САР ')).body).toEqual({ matched: true, matchType: 'exact', flowNamespace: 'ns_premium_1', mapping: { matchValue: 'Netflix Premium - 1 сар', priority: 5, flowName: 'premium_1' } });
    // Exact is the whole name: another plan falls to the keyword mapping.
    expect((await test('Netflix Premium - 3 сар')).body).toEqual({ matched: true, matchType: 'keyword', flowNamespace: 'ns_netflix', mapping: { matchValue: 'netflix', priority: 1, flowName: 'netflix' } });
    // A keyword anywhere in the name, in any case; the lowest priority last.
    expect((await test('Spotify 1 САР')).body).toMatchObject({ matched: true, matchType: 'keyword', flowNamespace: 'ns_month', mapping: { matchValue: 'сар', priority: 0, flowName: null } });
    // The disabled mapping (priority 100) would match "premium", but is never used.
    expect((await test('YouTube Premium')).body).toEqual({ matched: false, matchType: null, flowNamespace: null, mapping: null });

    // Reversing the priorities reverses the answer.
    await s.call('PUT', `/api/admin/flow-mappings/${keyword.id}`, { priority: 10 });
    expect((await test('Netflix Premium - 1 сар')).body).toMatchObject({ matchType: 'keyword', flowNamespace: 'ns_netflix', mapping: { priority: 10 } });
    // Switched on in the edit dialog, the disabled mapping now wins.
    await s.call('PUT', `/api/admin/flow-mappings/${disabled.id}`, { enabled: true });
    expect((await test('Netflix Premium - 1 сар')).body).toMatchObject({ matched: true, matchType: 'keyword', flowNamespace: 'ns_off', mapping: { matchValue: 'premium', priority: 100, flowName: null } });
    await s.call('PUT', `/api/admin/flow-mappings/${disabled.id}`, { enabled: false });

    // What the chat webhook will read: the enabled mappings in checking order.
    const rules = await flowMappingsStore.enabledRules(s.aiChat.prisma);
    expect(rules.map((rule) => [rule.flowNamespace, rule.priority])).toEqual([['ns_netflix', 10], ['ns_premium_1', 5], ['ns_month', 0]]);
    expect(rules.map((rule) => rule.id)).not.toContain(disabled.id);
    expect(rules.map((rule) => rule.id)).toContain(exact.id);
  });

  it('refuses a routing test without a product name with the page text', async () => {
    for (const productName of ['', '   ', undefined, null]) {
      const reply = await test(productName);
      expect([reply.status, reply.body.details[0].message], String(productName)).toEqual([400, 'Please enter a product name to test.']);
      expect(reply.body.error).toContain('Please enter a product name to test.');
    }
  });

  it('tells the status card whether an enabled provider has its key and how many system prompts there are', async () => {
    // The seeded OpenAI provider is enabled and OPENAI_API_KEY is set; no prompts yet.
    expect((await s.call('GET', '/api/admin/ai-status')).body).toEqual({ openai_configured: true, prompts_count: 0 });

    await s.call('POST', '/api/admin/prompts', { promptId: 'chat_assistant', name: 'Chat', content: 'Be brief.' });
    await s.call('PUT', '/api/system-prompts/email_parser', { content: 'JSON only.' });
    const providers = (await s.call('GET', '/api/admin/ai-providers')).body.data;
    for (const provider of providers) await s.call('PUT', `/api/admin/ai-providers/${provider.id}`, { enabled: false });
    // Enabled providers whose key variable is unset or blank do not count; a disabled one with its key does not either.
    await s.call('POST', '/api/admin/ai-providers', { provider: 'claude', model: 'claude-haiku-4-5', apiKeyEnvVar: 'NEVER_SET_API_KEY' });
    await s.call('POST', '/api/admin/ai-providers', { provider: 'claude', model: 'claude-haiku-4-5', apiKeyEnvVar: 'SPARE_API_KEY' });
    const gemini = await s.call('POST', '/api/admin/ai-providers', { provider: 'gemini', model: 'gemini-2.5-flash', apiKeyEnvVar: 'GEMINI_API_KEY', enabled: false });
    expect((await s.call('GET', '/api/admin/ai-status')).body).toEqual({ openai_configured: false, prompts_count: 2 });

    await s.call('PUT', `/api/admin/ai-providers/${gemini.body.data.id}`, { enabled: true });
    await s.call('DELETE', '/api/admin/prompts/chat_assistant');
    expect((await s.call('GET', '/api/admin/ai-status')).body).toEqual({ openai_configured: true, prompts_count: 1 });
  });
});
