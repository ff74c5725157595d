import type { FastifyInstance } from 'fastify';
import { notFound, serveRoute } from '@bo/platform';
import { createAiProvider, deleteAiProvider, listAiProviders, updateAiProvider, type AiProvider as AiProviderView } from '@bo/proto';
import type { AiProviders } from '../clients/ai-providers';
import type { AiProvider } from '../generated/prisma/client';
import { providersStore } from '../store/providers-store';
import type { AiChatRouteDeps } from './deps';

export const providerView = (row: AiProvider, ai: AiProviders): AiProviderView => ({
  id: row.id,
  provider: row.provider as AiProviderView['provider'],
  model: row.model,
  apiKeyEnvVar: row.apiKeyEnvVar,
  priority: row.priority,
  enabled: row.enabled,
  apiKeyPresent: ai.keyPresent(row.apiKeyEnvVar),
});

/** The AI providers card: rows name the variable holding each key; the list says whether it is set. */
export function registerProviderRoutes(app: FastifyInstance, { prisma, ai }: AiChatRouteDeps): void {
  serveRoute(app, listAiProviders, async () => ({ success: true, data: (await providersStore.list(prisma)).map((row) => providerView(row, ai)) }));

  serveRoute(app, createAiProvider, async ({ body }) => ({ success: true, data: providerView(await providersStore.create(prisma, body), ai) }));

  serveRoute(app, updateAiProvider, async ({ params, body }) => {
    const row = await providersStore.update(prisma, params.id, body);
    if (!row) throw notFound('AI provider not found');
    return { success: true, data: providerView(row, ai) };
  });

  serveRoute(app, deleteAiProvider, async ({ params }) => {
    if (!(await providersStore.delete(prisma, params.id))) throw notFound('AI provider not found');
    return { success: true };
  });
}
