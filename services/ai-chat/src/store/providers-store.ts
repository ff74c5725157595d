import type { ProviderFamily, ProviderTarget } from '../clients/ai-providers';
import type { Prisma } from '../generated/prisma/client';
import type { AiChatDb } from './db';

type ProviderFields = Pick<Prisma.AiProviderUncheckedCreateInput, 'provider' | 'model' | 'apiKeyEnvVar' | 'priority' | 'enabled'>;

/** The AI providers; the only place that touches ai_providers. */
export const providersStore = {
  /** In the order they are tried: priority 0 first, then the oldest row. */
  list(db: AiChatDb, options: { enabledOnly?: boolean } = {}) {
    return db.aiProvider.findMany({ where: options.enabledOnly ? { enabled: true } : {}, orderBy: [{ priority: 'asc' }, { id: 'asc' }] });
  },

  /** The enabled providers as the AI client asks them, in the order they are tried. */
  async targets(db: AiChatDb): Promise<ProviderTarget[]> {
    const rows = await providersStore.list(db, { enabledOnly: true });
    return rows.map((row) => ({ id: row.id, provider: row.provider as ProviderFamily, model: row.model, apiKeyEnvVar: row.apiKeyEnvVar }));
  },

  create(db: AiChatDb, data: ProviderFields) {
    return db.aiProvider.create({ data });
  },

  /** Null when there is no such row. */
  async update(db: AiChatDb, id: number, data: Partial<ProviderFields>) {
    const { count } = await db.aiProvider.updateMany({ where: { id }, data });
    return count === 1 ? db.aiProvider.findUnique({ where: { id } }) : null;
  },

  async delete(db: AiChatDb, id: number): Promise<boolean> {
    return (await db.aiProvider.deleteMany({ where: { id } })).count === 1;
  },
};
