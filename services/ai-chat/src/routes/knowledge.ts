import type { FastifyInstance } from 'fastify';
import { notFound, serveRoute } from '@bo/platform';
import { startedByOf } from '@bo/platform/runs';
import { createKnowledgeEntry, deleteKnowledgeEntry, KNOWLEDGE_NOT_FOUND, listKnowledge, listKnowledgeCategories, searchKnowledge, updateKnowledgeEntry } from '@bo/proto';
import type { KnowledgeBase } from '../operations/knowledge-base';

/** The Knowledge Base card on /ai-admin (document 2 §2.1, §7.1): entries, their categories, and the test search. */
export function registerKnowledgeRoutes(app: FastifyInstance, knowledge: KnowledgeBase): void {
  serveRoute(app, listKnowledge, async ({ query }) => ({ success: true, data: await knowledge.list(query.category || undefined) }));

  serveRoute(app, listKnowledgeCategories, async () => ({ success: true, data: await knowledge.categories() }));

  serveRoute(app, createKnowledgeEntry, async ({ body, identity }) => ({ success: true, data: await knowledge.create(body, startedByOf(identity)) }));

  serveRoute(app, updateKnowledgeEntry, async ({ params, body, identity }) => {
    const entry = await knowledge.update(params.id, body, startedByOf(identity));
    if (!entry) throw notFound(KNOWLEDGE_NOT_FOUND);
    return { success: true, data: entry };
  });

  serveRoute(app, deleteKnowledgeEntry, async ({ params }) => {
    if (!(await knowledge.delete(params.id))) throw notFound(KNOWLEDGE_NOT_FOUND);
    return { success: true };
  });

  serveRoute(app, searchKnowledge, async ({ body }) => {
    const result = await knowledge.search(body.query, body.limit);
    return { success: true, data: result.entries, mode: result.mode, reason: result.reason };
  });
}
