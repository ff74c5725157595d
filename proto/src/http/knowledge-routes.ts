import { z } from 'zod';
import { defineRoute, successReply } from './contract';
import { idParam } from './fields';

/**
 * The knowledge base (issue 21, document 2 §2.1 "Knowledge Base", §3 "Knowledge entry", §7.1):
 * facts the chat's AI is given when they fit a subscriber's question. Each entry is embedded by a
 * background run when it is saved; search finds entries by their words and, once embedded, by
 * meaning (hybrid), and says in plain words when it could use words only.
 */
const category = 'AI';

export const KNOWLEDGE_FIELDS_REQUIRED = 'Please fill in all fields.';
export const KNOWLEDGE_QUERY_REQUIRED = 'Please enter a search query.';
export const KNOWLEDGE_NOT_FOUND = 'Knowledge entry not found';

/** Document 2 §9: an entry's embedding has 1536 dimensions. */
export const KNOWLEDGE_EMBEDDING_DIMENSIONS = 1536;
/** Longest content: well inside the embeddings model's 8,191 tokens, also for Mongolian text. */
export const KNOWLEDGE_CONTENT_MAX = 10_000;
export const KNOWLEDGE_SEARCH_LIMIT_MAX = 50;

const required = (max: number) =>
  z.string({ error: KNOWLEDGE_FIELDS_REQUIRED }).trim().min(1, KNOWLEDGE_FIELDS_REQUIRED).max(max, `At most ${max.toLocaleString('en-US')} characters`);

export const knowledgeEntrySchema = z.object({
  id: z.number().int(),
  category: z.string(),
  title: z.string(),
  content: z.string(),
  metadata: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Whether its embedding (of its current text) is made: until then it is found by its words only. */
  embedded: z.boolean(),
});
export type KnowledgeEntry = z.infer<typeof knowledgeEntrySchema>;

export const knowledgeSearchModes = ['hybrid', 'keyword'] as const;
export type KnowledgeSearchMode = (typeof knowledgeSearchModes)[number];

export const knowledgeSearchHitSchema = knowledgeEntrySchema.extend({
  /**
   * How closely the entry fits the query, 0 to 1: the cosine similarity of their meanings or the
   * share of the query's words found in the entry (a misspelt word counts by its likeness),
   * whichever is higher. Results are ordered by the two rankings fused, not by this number.
   */
  similarity: z.number().min(0).max(1),
  /** Which rankings found it: by its words, by its meaning, or both. */
  foundBy: z.array(z.enum(['keywords', 'meaning'])),
});
export type KnowledgeSearchHit = z.infer<typeof knowledgeSearchHitSchema>;

const entryFields = z.object({
  category: required(100),
  title: required(300),
  content: required(KNOWLEDGE_CONTENT_MAX),
  /** Free-form facts about the entry (its source, a product name); kept as given. */
  metadata: z.record(z.string(), z.unknown()).optional(),
});

const exampleEntry: KnowledgeEntry = {
  id: 1,
  category: 'Payments',
  title: 'Paying with QPay',
  content: 'Scan the QR code in your bank app, or open the payment link; the key arrives in this chat within a minute of payment.',
  metadata: {},
  createdAt: '2026-11-26T08:00:00.000Z',
  updatedAt: '2026-11-26T08:00:01.000Z',
  embedded: true,
};

export const listKnowledge = defineRoute({
  owner: 'ai-chat', method: 'GET', path: '/api/admin/knowledge', access: 'admin', category,
  query: z.object({ category: z.string().trim().max(100).optional() }),
  reply: z.object({ success: z.boolean(), data: z.array(knowledgeEntrySchema) }),
  summary: 'Knowledge entries by category and title; only one category with `category`',
  example: { query: { category: 'Payments' }, reply: { success: true, data: [exampleEntry] } },
});

export const listKnowledgeCategories = defineRoute({
  owner: 'ai-chat', method: 'GET', path: '/api/admin/knowledge/categories', access: 'admin', category,
  reply: z.object({ success: z.boolean(), data: z.array(z.object({ category: z.string(), count: z.number().int() })) }),
  summary: 'Every category with how many entries it holds (the page\'s category filter)',
  example: { reply: { success: true, data: [{ category: 'Payments', count: 4 }] } },
});

export const createKnowledgeEntry = defineRoute({
  owner: 'ai-chat', method: 'POST', path: '/api/admin/knowledge', access: 'admin', category,
  body: entryFields,
  reply: z.object({ success: z.boolean(), data: knowledgeEntrySchema }),
  summary: 'Add an entry; a knowledge-embed run (Background work) makes its embedding, and until then it is found by its words',
  example: {
    body: { category: exampleEntry.category, title: exampleEntry.title, content: exampleEntry.content },
    reply: { success: true, data: { ...exampleEntry, embedded: false } },
  },
});

export const updateKnowledgeEntry = defineRoute({
  owner: 'ai-chat', method: 'PUT', path: '/api/admin/knowledge/:id', access: 'admin', category,
  params: z.object({ id: idParam }),
  body: entryFields,
  reply: z.object({ success: z.boolean(), data: knowledgeEntrySchema }),
  summary: 'Change an entry; a changed text is embedded again by a knowledge-embed run (metadata alone keeps the embedding)',
  example: {
    params: { id: 1 },
    body: { category: 'Payments', title: 'Paying with QPay', content: 'Scan the QR code in your bank app.' },
    reply: { success: true, data: { ...exampleEntry, content: 'Scan the QR code in your bank app.', embedded: false } },
  },
});

export const deleteKnowledgeEntry = defineRoute({
  owner: 'ai-chat', method: 'DELETE', path: '/api/admin/knowledge/:id', access: 'admin', category,
  params: z.object({ id: idParam }),
  reply: successReply,
  summary: 'Delete an entry',
  example: { params: { id: 1 }, reply: { success: true } },
});

export const searchKnowledge = defineRoute({
  owner: 'ai-chat', method: 'POST', path: '/api/admin/knowledge/search', access: 'admin', category,
  body: z.object({
    query: z.string({ error: KNOWLEDGE_QUERY_REQUIRED }).trim().min(1, KNOWLEDGE_QUERY_REQUIRED).max(2_000, 'At most 2,000 characters'),
    limit: z.number().int().min(1).max(KNOWLEDGE_SEARCH_LIMIT_MAX).default(10),
  }),
  reply: z.object({
    success: z.boolean(),
    data: z.array(knowledgeSearchHitSchema),
    /** hybrid: by words and by meaning, fused (reciprocal rank fusion); keyword: by words only. */
    mode: z.enum(knowledgeSearchModes),
    /** Why meaning was not used, or for which entries not, in plain words; null when every entry was searched both ways. */
    reason: z.string().nullable(),
  }),
  summary: "The page's test search, the same search the chat's AI is given entries by: words and meaning (hybrid), or words only with the reason",
  example: {
    body: { query: 'how do I pay with qpay', limit: 10 },
    reply: { success: true, data: [{ ...exampleEntry, similarity: 0.82, foundBy: ['keywords', 'meaning'] }], mode: 'hybrid', reason: null },
  },
});

export const knowledgeRoutes = [listKnowledge, listKnowledgeCategories, createKnowledgeEntry, updateKnowledgeEntry, deleteKnowledgeEntry, searchKnowledge];
