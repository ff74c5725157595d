import { asService } from '@bo/platform/testing/identity';
import { signedAs } from '@bo/platform/testing/services';
import { KNOWLEDGE_FIELDS_REQUIRED, KNOWLEDGE_NOT_FOUND, KNOWLEDGE_QUERY_REQUIRED, knowledgeRoutes, routesOwnedBy, type RunView } from '@bo/proto';
import { embedText } from '@bo/sim-openai/embeddings';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { cosineSimilarity, queryWords, vectorFromBytes } from '../src/domain/knowledge-ranking';
import { knowledgeSearchTexts } from '../src/operations/knowledge-base';
import { startAiChatSystem, type AiChatService, type AiChatSystem } from './system';

const customer = signedAs({ kind: 'customer', userId: null, email: 'c@example.mn', isAdmin: false, keyId: '1' });
const asGateway = asService('gateway');

/** An entry whose text the simulator's embeddings know well (they are made of its words and their trigrams). */
const refunds = { category: 'Payments', title: 'Refunds', content: 'Refunds reach your bank account within three working days.' };
const qpay = { category: 'Payments', title: 'Paying with QPay', content: 'Scan the QR code with your bank app; the key arrives in this chat within a minute.' };
const netflix = { category: 'Netflix', title: 'Sharing a Netflix account', content: 'Each key is one profile on a shared account. Do not change the password or the profile name.' };
/** The text each entry's embedding is made of (the knowledge base's embeddingText). */
const embeddedText = (entry: { category: string; title: string; content: string }) => `${entry.category}: ${entry.title}\n\n${entry.content}`;
const simulatorVector = (text: string) => Float32Array.from(embedText(text, 1536));

describe('the knowledge base (issue 21): entries, their embedding runs, and search by words and meaning', () => {
  let s: AiChatSystem;
  let openaiId: number;

  beforeAll(async () => {
    s = await startAiChatSystem('ai_chat_knowledge');
    openaiId = (await s.call('GET', '/api/admin/ai-providers')).body.data[0].id;
  });
  afterAll(() => s?.stop());

  const search = async (query: string, limit = 10) => {
    const reply = await s.call('POST', '/api/admin/knowledge/search', { query, limit });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    return reply.body as { success: boolean; data: { id: number; title: string; similarity: number; foundBy: string[]; embedded: boolean }[]; mode: string; reason: string | null };
  };
  const create = async (fields: object) => {
    const reply = await s.call('POST', '/api/admin/knowledge', fields);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    return reply.body.data as { id: number; title: string; embedded: boolean };
  };
  /** The newest knowledge-embed run, once it has finished. */
  const lastEmbedRun = async (): Promise<RunView> => {
    const [newest] = (await s.call('GET', '/internal/ai-chat/runs?kind=knowledge-embed&limit=1', undefined, asGateway)).body.data as RunView[];
    return finished(newest.id);
  };
  const finished = async (runId: string): Promise<RunView> =>
    vi.waitFor(
      async () => {
        const run = (await s.call('GET', `/api/admin/runs/${runId}`)).body as RunView;
        if (!['completed', 'failed', 'cancelled'].includes(run.status)) throw new Error(`run ${runId} is ${run.status}`);
        return run;
      },
      { timeout: 20_000, interval: 100 },
    );
  const storedVector = async (id: number) => {
    const row = await s.aiChat.prisma.knowledgeEntry.findUniqueOrThrow({ where: { id } });
    return { bytes: row.embedding?.byteLength ?? null, model: row.embeddingModel, vector: row.embedding ? vectorFromBytes(row.embedding, 1536) : null };
  };
  const providers = (enabled: boolean, apiKeyEnvVar = 'OPENAI_API_KEY') => s.call('PUT', `/api/admin/ai-providers/${openaiId}`, { enabled, apiKeyEnvVar });

  it('serves every knowledge route for admins only', async () => {
    const routes = routesOwnedBy('ai-chat');
    expect(routes).toEqual(expect.arrayContaining(knowledgeRoutes));
    for (const contract of knowledgeRoutes) expect(s.aiChat.app.hasRoute({ method: contract.method, url: contract.path }), `${contract.method} ${contract.path}`).toBe(true);
    expect((await s.call('GET', '/api/admin/knowledge', undefined, customer)).status).toBe(403);
    expect((await s.call('POST', '/api/admin/knowledge/search', { query: 'x' }, {})).status).toBe(401);
  });

  it("splits a query into the words PostgreSQL's to_tsvector('simple', …) makes of it (entries' words are PostgreSQL's own)", async () => {
    const lexemes = async (text: string) =>
      ((await s.aiChat.prisma.$queryRawUnsafe<{ words: string[] }[]>(`SELECT coalesce(array_agg(lexeme), '{}') AS words FROM unnest(to_tsvector('simple', $1))`, text))[0].words).sort();
    // Ordinary text: the very same words.
    for (const text of ['How much is Netflix Premium 3 months?', 'нетфликс 6 сар үнэ хэд вэ', "I can't log in; the TV says: Error 12", '3-р сар, Disney+ ПРОФАЙЛ', 'Төлбөрөө яаж төлөх вэ? 25,000₮ app_name']) {
      expect(queryWords(text).words.sort(), text).toEqual(await lexemes(text));
    }
    // Joined tokens: every word PostgreSQL makes is among ours (its parts, or the token whole).
    for (const text of ['QPay-ээр төлөх үү?', 'write to bat@shop.mn', 'version 2.5 of the app', 'netflix-ийн e-mail']) {
      const ours = queryWords(text);
      expect([...ours.words, ...ours.joined], text).toEqual(expect.arrayContaining(await lexemes(text)));
    }
  });

  it('says why search uses words only while the knowledge base is empty', async () => {
    expect(await search('refunds')).toEqual({ success: true, data: [], mode: 'keyword', reason: 'Keyword search only: the knowledge base has no entries yet.' });
  });

  it("refuses an entry without every field, and a search without a query, with the page's texts; an unknown id is a 404", async () => {
    for (const body of [{}, { title: 't', content: 'c' }, { category: 'c', title: ' ', content: 'c' }, { category: 'c', title: 't' }, { category: 'c', title: 't', content: '\n\t' }]) {
      const reply = await s.call('POST', '/api/admin/knowledge', body);
      expect(reply.status).toBe(400);
      expect(reply.body.error).toContain(KNOWLEDGE_FIELDS_REQUIRED);
      expect(reply.body.details[0].message).toBe(KNOWLEDGE_FIELDS_REQUIRED);
    }
    expect(KNOWLEDGE_FIELDS_REQUIRED).toBe('Please fill in all fields.');
    const blankEdit = await s.call('PUT', '/api/admin/knowledge/1', { category: 'c', title: '', content: 'c' });
    expect([blankEdit.status, blankEdit.body.details[0].message]).toEqual([400, KNOWLEDGE_FIELDS_REQUIRED]);
    for (const body of [{}, { query: '' }, { query: '   ' }]) {
      const reply = await s.call('POST', '/api/admin/knowledge/search', body);
      expect([reply.status, reply.body.details[0].message]).toEqual([400, 'Please enter a search query.']);
    }
    expect(KNOWLEDGE_QUERY_REQUIRED).toBe('Please enter a search query.');
    expect(await s.call('PUT', '/api/admin/knowledge/999999', refunds)).toMatchObject({ status: 404, body: { error: KNOWLEDGE_NOT_FOUND } });
    expect(await s.call('DELETE', '/api/admin/knowledge/999999')).toMatchObject({ status: 404, body: { error: 'Knowledge entry not found' } });
    expect((await s.call('GET', '/api/admin/knowledge')).body.data).toEqual([]);
  });

  it('creates entries, lists them (one category with ?category), counts the categories, changes and deletes them', async () => {
    const a = await create({ ...netflix, metadata: { source: 'faq' } });
    const b = await create({ category: '  Netflix ', title: 'Household update', content: 'Open the link from the mail on your TV.' });
    const c = await create(qpay);
    expect(b).toMatchObject({ category: 'Netflix', title: 'Household update', metadata: {}, embedded: false });
    expect(a).toMatchObject({ ...netflix, metadata: { source: 'faq' }, createdAt: expect.any(String), updatedAt: expect.any(String) });

    const all = (await s.call('GET', '/api/admin/knowledge')).body.data as { id: number; category: string; title: string }[];
    expect(all.map((entry) => [entry.category, entry.title])).toEqual([['Netflix', 'Household update'], ['Netflix', 'Sharing a Netflix account'], ['Payments', 'Paying with QPay']]);
    expect((await s.call('GET', '/api/admin/knowledge?category=Netflix')).body.data.map((entry: { id: number }) => entry.id).sort()).toEqual([a.id, b.id].sort());
    expect((await s.call('GET', '/api/admin/knowledge/categories')).body).toEqual({ success: true, data: [{ category: 'Netflix', count: 2 }, { category: 'Payments', count: 1 }] });

    const edited = await s.call('PUT', `/api/admin/knowledge/${b.id}`, { category: 'Payments', title: 'Household update', content: 'Open the link on your TV.' });
    expect(edited.body.data).toMatchObject({ id: b.id, category: 'Payments', content: 'Open the link on your TV.', metadata: {} });
    expect((await s.call('GET', '/api/admin/knowledge/categories')).body.data).toEqual([{ category: 'Netflix', count: 1 }, { category: 'Payments', count: 2 }]);

    expect((await s.call('DELETE', `/api/admin/knowledge/${b.id}`)).body).toEqual({ success: true });
    expect((await s.call('DELETE', `/api/admin/knowledge/${b.id}`)).status).toBe(404);
    expect((await s.call('GET', '/api/admin/knowledge')).body.data.map((entry: { id: number }) => entry.id).sort()).toEqual([a.id, c.id].sort());
  });

  it("embeds an entry in a knowledge-embed run (1536 float32 values, the provider's own), then finds it by meaning as well as by words", async () => {
    await s.resetSimulators();
    const entry = await create(refunds);
    const run = await lastEmbedRun();
    expect(run).toMatchObject({ kind: 'knowledge-embed', status: 'completed', startedBy: 'admin:admin@example.com', result: { embedded: true, model: 'text-embedding-3-small', dimensions: 1536, providerId: openaiId, tries: 1 } });
    expect((await s.sims.openai.attempts()).some((attempt) => attempt.path === '/v1/embeddings')).toBe(true);

    const stored = await storedVector(entry.id);
    expect(stored).toMatchObject({ bytes: 1536 * 4, model: 'text-embedding-3-small' });
    expect(stored.vector).toHaveLength(1536);
    expect(cosineSimilarity(stored.vector!, simulatorVector(embeddedText(refunds)))).toBeCloseTo(1, 6);
    expect((await s.call('GET', '/api/admin/knowledge?category=Payments')).body.data.find((row: { id: number }) => row.id === entry.id).embedded).toBe(true);

    // By its words and by meaning: both rankings found it.
    const byWords = await search('refunds');
    expect(byWords.data[0]).toMatchObject({ id: entry.id, foundBy: ['keywords', 'meaning'], embedded: true });
    expect(byWords.mode).toBe('hybrid');
    // Two entries of the earlier test are not embedded: their runs did it, but check what the search says either way.
    expect(byWords.reason === null || /not embedded yet/.test(byWords.reason)).toBe(true);

    // A word no entry holds, and too unlike "refunds" to count as it misspelt: only meaning finds it, with the cosine as its similarity.
    const byMeaning = await search('refundability');
    const hit = byMeaning.data.find((row) => row.id === entry.id)!;
    expect(hit.foundBy).toEqual(['meaning']);
    expect(hit.similarity).toBeCloseTo(cosineSimilarity(simulatorVector('refundability'), simulatorVector(embeddedText(refunds))), 5);

    // A misspelt word is found by its words (pg_trgm's likeness).
    expect((await search('refnds')).data[0]).toMatchObject({ id: entry.id, foundBy: expect.arrayContaining(['keywords']) });

    // With no provider the same word finds nothing: words alone cannot.
    await providers(false);
    try {
      const wordsOnly = await vi.waitFor(async () => {
        const result = await search('refundability');
        expect(result.mode).toBe('keyword');
        return result;
      }, { timeout: 5_000, interval: 200 });
      expect(wordsOnly.data.map((row) => row.id)).not.toContain(entry.id);
    } finally {
      await providers(true);
    }
  });

  it('keeps an entry findable by its words while the AI fails; the run tries again, fails with why, and Retry embeds it', async () => {
    await s.resetSimulators();
    // One failure: the run's second try makes it.
    await s.sims.openai.control('errors', { kind: 'rate_limit', times: 1, pathPrefix: '/v1/embeddings' });
    const once = await create({ category: 'Games', title: 'PUBG UC top-up', content: 'UC arrives in your PUBG account within ten minutes of payment.' });
    expect(await lastEmbedRun()).toMatchObject({ status: 'completed', result: { embedded: true, tries: 2 } });
    expect((await storedVector(once.id)).bytes).toBe(1536 * 4);

    // Every try fails: the run fails with the provider's answer, and the entry is still found by its words.
    await s.sims.openai.control('errors', { kind: 'rate_limit', times: 3, pathPrefix: '/v1/embeddings' });
    const failing = await create({ category: 'Games', title: 'Mobile Legends diamonds', content: 'Diamonds are sent to your Mobile Legends id and zone.' });
    const failed = await lastEmbedRun();
    expect(failed.status).toBe('failed');
    expect(failed.lastError).toBe(`No AI provider made the embedding in 3 tries: openai provider ${openaiId} answered 429 (rate_limit_exceeded)`);
    // Two tries for the first entry, three for this one.
    expect((await s.sims.openai.attempts()).filter((attempt) => attempt.path === '/v1/embeddings')).toHaveLength(5);
    expect((await storedVector(failing.id)).bytes).toBeNull();

    const meanwhile = await search('mobile legends diamonds');
    expect(meanwhile.mode).toBe('hybrid');
    expect(meanwhile.data[0]).toMatchObject({ id: failing.id, foundBy: ['keywords'], embedded: false });
    expect(meanwhile.reason).toMatch(/^\d+ of \d+ entries (is|are) not embedded yet: (it is|they are) found by (its|their) words only\.$/);

    // Retry (Background work) runs it again: now the AI answers.
    const retried = await s.call('POST', `/api/admin/runs/${failed.id}/retry`);
    expect(retried.status).toBe(200);
    expect(await finished(failed.id)).toMatchObject({ status: 'completed', result: { embedded: true, tries: 1 } });
    expect((await storedVector(failing.id)).vector).toHaveLength(1536);
    expect((await search('mobile legends diamonds')).data[0]).toMatchObject({ id: failing.id, foundBy: ['keywords', 'meaning'], embedded: true });
  });

  it('an edit of the text drops the old embedding and embeds the new text; metadata alone keeps it', async () => {
    const entry = await create({ category: 'Delivery', title: 'Key delivery', content: 'Your key comes in this chat.' });
    await lastEmbedRun();
    const before = (await storedVector(entry.id)).vector!;
    const runsBefore = (await s.call('GET', '/internal/ai-chat/runs?kind=knowledge-embed', undefined, asGateway)).body.data.length;
    await s.call('PUT', `/api/admin/knowledge/${entry.id}`, { category: 'Delivery', title: 'Key delivery', content: 'Your key comes in this chat.', metadata: { checked: true } });
    expect((await s.call('GET', '/internal/ai-chat/runs?kind=knowledge-embed', undefined, asGateway)).body.data.length).toBe(runsBefore);
    expect((await storedVector(entry.id)).vector).toEqual(before);

    const changed = await s.call('PUT', `/api/admin/knowledge/${entry.id}`, { category: 'Delivery', title: 'Key delivery', content: 'Your key and its profile number come in this chat.' });
    expect(changed.body.data).toMatchObject({ embedded: false, metadata: { checked: true } });
    expect(await lastEmbedRun()).toMatchObject({ status: 'completed', result: { embedded: true } });
    const after = (await storedVector(entry.id)).vector!;
    expect(cosineSimilarity(after, simulatorVector(embeddedText({ category: 'Delivery', title: 'Key delivery', content: 'Your key and its profile number come in this chat.' })))).toBeCloseTo(1, 6);
  });

  it('searches by words only, saying why, when no provider makes embeddings, when its key is not set, or when the query embedding is too slow', async () => {
    await s.resetSimulators();
    try {
      await providers(false);
      const none = await vi.waitFor(async () => {
        const result = await search('refunds');
        expect(result.mode).toBe('keyword');
        return result;
      }, { timeout: 5_000, interval: 200 });
      expect(none.reason).toBe(knowledgeSearchTexts.noProvider);
      expect(none.reason).toBe('Keyword search only: no enabled AI provider makes embeddings (OpenAI providers do, with text-embedding-3-small; Gemini and Claude are not asked).');
      expect(none.data[0]).toMatchObject({ title: 'Refunds', foundBy: ['keywords'], similarity: 1 });

      // A Gemini provider does not make them either (its vectors would not compare with OpenAI's).
      const gemini = (await s.call('POST', '/api/admin/ai-providers', { provider: 'gemini', model: 'gemini-2.5-flash', apiKeyEnvVar: 'GEMINI_API_KEY' })).body.data.id;
      // An entry saved now: its run fails at once, saying why; the entry is found by its words.
      const unembedded = await create({ category: 'Games', title: 'Steam wallet codes', content: 'Steam wallet codes are sent by e-mail.' });
      expect(await lastEmbedRun()).toMatchObject({ status: 'failed', lastError: 'No AI provider made the embedding: no enabled AI provider makes embeddings (only OpenAI providers do, with text-embedding-3-small)' });
      expect((await search('steam wallet')).data[0]).toMatchObject({ id: unembedded.id, foundBy: ['keywords'] });
      await s.call('DELETE', `/api/admin/ai-providers/${gemini}`);

      await providers(true, 'NEVER_SET_API_KEY');
      await vi.waitFor(async () => expect((await search('refunds')).reason).toBe('Keyword search only: the API key variable of the AI providers that make embeddings is not set (NEVER_SET_API_KEY).'), { timeout: 5_000, interval: 200 });

      await providers(true);
      await vi.waitFor(async () => expect((await search('refunds')).mode).toBe('hybrid'), { timeout: 5_000, interval: 200 });
      // The provider holds the query's embedding until the search has answered: it did not wait for it.
      const { faults: [held] } = (await s.sims.openai.control('faults', { kind: 'hold', times: 1, pathPrefix: '/v1/embeddings' })) as { faults: { id: number }[] };
      const slow = await search('refunds');
      expect(slow).toMatchObject({ mode: 'keyword', reason: 'Keyword search only: the AI provider did not make the query\'s embedding within 2 s.' });
      expect(slow.data[0]).toMatchObject({ title: 'Refunds', foundBy: ['keywords'] });
      const stillHeld = (await (await fetch(`${s.sims.openai.url}/__sim/held`)).json()) as { held: { rule: number; url: string }[] };
      expect(stillHeld.held.map((request) => [request.rule, request.url])).toEqual([[held.id, '/v1/embeddings']]);
      await s.sims.openai.control('faults/release', { id: held.id });
    } finally {
      await providers(true);
      await s.resetSimulators();
    }
  });

  it('a second process sees what the first saves, changes and deletes (within the 2 s between its looks at the table)', async () => {
    const second = (await s.system.replica<AiChatService>('ai-chat')).exposed.knowledge;
    const first = s.aiChat.exposed.knowledge;
    // Its memory is filled by this first search, before the entry exists.
    expect((await second.search('disney profile pin', 5)).entries.map((entry) => entry.title)).not.toContain('Disney plus profiles');

    const saved = await first.create({ category: 'Accounts', title: 'Disney plus profiles', content: 'A Disney plus key is one profile; keep its PIN.' }, 'admin:test');
    const seen = await vi.waitFor(async () => {
      const result = await second.search('disney profile pin', 5);
      expect(result.entries[0]?.id).toBe(saved.id);
      return result;
    }, { timeout: 6_000, interval: 100 });
    expect(seen.entries[0].foundBy).toContain('keywords');
    // Its embedding, made by a run in either process, reaches the second's memory too.
    await vi.waitFor(async () => expect((await second.search('disney profile pin', 5)).entries[0]).toMatchObject({ id: saved.id, embedded: true, foundBy: ['keywords', 'meaning'] }), { timeout: 20_000, interval: 200 });

    await first.update(saved.id, { category: 'Accounts', title: 'Hulu profiles', content: 'A Hulu key is one profile.' }, 'admin:test');
    await vi.waitFor(async () => expect((await second.search('hulu', 5)).entries[0]).toMatchObject({ id: saved.id, title: 'Hulu profiles' }), { timeout: 6_000, interval: 100 });

    // A change stamped earlier than the newest entry (a replica whose clock is behind, a late commit) is seen too.
    await s.aiChat.prisma.$executeRawUnsafe(`UPDATE ai_chat.knowledge_base SET title = 'Hulu profiles, late', updated_at = now() - interval '1 hour' WHERE id = $1`, saved.id);
    await vi.waitFor(async () => expect((await second.search('hulu', 5)).entries[0]).toMatchObject({ id: saved.id, title: 'Hulu profiles, late' }), { timeout: 6_000, interval: 100 });

    expect(await first.delete(saved.id)).toBe(true);
    await vi.waitFor(async () => expect((await second.search('hulu profile', 5)).entries.map((entry) => entry.id)).not.toContain(saved.id), { timeout: 6_000, interval: 100 });
  });
});
