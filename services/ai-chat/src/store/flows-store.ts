import type { ChatFlow as ChatFlowView, FlowMatchType } from '@bo/proto';
import type { FlowMappingRule } from '../domain/flow-routing';
import type { ManychatFlow, ProductFlowMapping } from '../generated/prisma/client';
import { isUniqueViolation, type AiChatDb } from './db';

export const flowView = (row: ManychatFlow): ChatFlowView => ({
  id: row.id,
  name: row.name,
  flowId: row.flowId,
  description: row.description,
  createdAt: row.createdAt.toISOString(),
});

export const mappingRule = (row: ProductFlowMapping): FlowMappingRule => ({
  id: row.id,
  matchType: row.matchType as FlowMatchType,
  matchValue: row.matchValue,
  flowNamespace: row.flowNamespace,
  flowName: row.flowName,
  priority: row.priority,
  enabled: row.enabled,
});

/** The fields of a mapping as the admin sends them (a change leaves out what stays). */
export type MappingFields = Omit<FlowMappingRule, 'id'>;

/** The chat's flows; the only place that touches manychat_flows. */
export const flowsStore = {
  list(db: AiChatDb) {
    return db.manychatFlow.findMany({ orderBy: { name: 'asc' } });
  },

  /** A flow by its name (kept lowercase), for the chat to send it. */
  find(db: AiChatDb, name: string) {
    return db.manychatFlow.findUnique({ where: { name: name.toLowerCase() } });
  },

  /** The name is kept lowercase. Null when a flow has that name (the unique index decides, so two at once cannot both win). */
  async create(db: AiChatDb, data: { name: string; flowId: string; description: string | null }) {
    try {
      return await db.manychatFlow.create({ data: { ...data, name: data.name.toLowerCase() } });
    } catch (error) {
      if (isUniqueViolation(error)) return null;
      throw error;
    }
  },

  async delete(db: AiChatDb, name: string): Promise<boolean> {
    return (await db.manychatFlow.deleteMany({ where: { name: name.toLowerCase() } })).count === 1;
  },
};

/** Which flow a product is routed to; the only place that touches product_flow_mappings. */
export const flowMappingsStore = {
  /** Every mapping in the order they are checked: highest priority first, then the oldest. */
  list(db: AiChatDb) {
    return db.productFlowMapping.findMany({ orderBy: [{ priority: 'desc' }, { id: 'asc' }] });
  },

  /** The enabled mappings as routeToFlow reads them, in the order they are checked. */
  async enabledRules(db: AiChatDb): Promise<FlowMappingRule[]> {
    const rows = await db.productFlowMapping.findMany({ where: { enabled: true }, orderBy: [{ priority: 'desc' }, { id: 'asc' }] });
    return rows.map(mappingRule);
  },

  create(db: AiChatDb, data: MappingFields) {
    return db.productFlowMapping.create({ data });
  },

  /** Null when there is no such mapping. */
  async update(db: AiChatDb, id: number, data: Partial<MappingFields>) {
    const { count } = await db.productFlowMapping.updateMany({ where: { id }, data });
    return count === 1 ? db.productFlowMapping.findUnique({ where: { id } }) : null;
  },

  async delete(db: AiChatDb, id: number): Promise<boolean> {
    return (await db.productFlowMapping.deleteMany({ where: { id } })).count === 1;
  },
};
