import type { FastifyInstance } from 'fastify';
import { conflict, notFound, serveRoute } from '@bo/platform';
import {
  createChatFlow,
  createFlowMapping,
  deleteChatFlow,
  deleteFlowMapping,
  getAiStatus,
  listChatFlows,
  listFlowMappings,
  testFlowRouting,
  updateFlowMapping,
  type FlowTestResult,
} from '@bo/proto';
import { routeToFlow } from '../domain/flow-routing';
import { flowMappingsStore, flowsStore, flowView, mappingRule } from '../store/flows-store';
import { promptsStore } from '../store/prompts-store';
import { providersStore } from '../store/providers-store';
import type { AiChatRouteDeps } from './deps';

const FLOW_MAPPING_NOT_FOUND = 'Flow mapping not found';

/**
 * /ai-admin's Chat Flows, Flow Mappings and Flow Routing Tester cards (document 2 §2.1, §7.1), and
 * its Status card.
 */
export function registerFlowRoutes(app: FastifyInstance, { prisma, ai }: AiChatRouteDeps): void {
  serveRoute(app, listChatFlows, async () => ({ success: true, data: (await flowsStore.list(prisma)).map(flowView) }));

  serveRoute(app, createChatFlow, async ({ body }) => {
    const row = await flowsStore.create(prisma, { name: body.name, flowId: body.flowId, description: body.description ?? null });
    if (!row) throw conflict(`A flow named "${body.name.toLowerCase()}" already exists`);
    return { success: true, data: flowView(row) };
  });

  serveRoute(app, deleteChatFlow, async ({ params }) => {
    if (!(await flowsStore.delete(prisma, params.name))) throw notFound(`No flow named "${params.name}"`);
    return { success: true };
  });

  serveRoute(app, listFlowMappings, async () => ({ success: true, data: (await flowMappingsStore.list(prisma)).map(mappingRule) }));

  serveRoute(app, createFlowMapping, async ({ body }) => {
    const row = await flowMappingsStore.create(prisma, { ...body, flowName: body.flowName ?? null });
    return { success: true, data: mappingRule(row) };
  });

  serveRoute(app, updateFlowMapping, async ({ params, body }) => {
    const row = await flowMappingsStore.update(prisma, params.id, body);
    if (!row) throw notFound(FLOW_MAPPING_NOT_FOUND);
    return { success: true, data: mappingRule(row) };
  });

  serveRoute(app, deleteFlowMapping, async ({ params }) => {
    if (!(await flowMappingsStore.delete(prisma, params.id))) throw notFound(FLOW_MAPPING_NOT_FOUND);
    return { success: true };
  });

  serveRoute(app, testFlowRouting, async ({ body }): Promise<FlowTestResult> => {
    const rule = routeToFlow(body.productName, await flowMappingsStore.enabledRules(prisma));
    if (!rule) return { matched: false, matchType: null, flowNamespace: null, mapping: null };
    return { matched: true, matchType: rule.matchType, flowNamespace: rule.flowNamespace, mapping: { matchValue: rule.matchValue, priority: rule.priority, flowName: rule.flowName } };
  });

  serveRoute(app, getAiStatus, async () => {
    const [providers, promptsCount] = await Promise.all([providersStore.list(prisma, { enabledOnly: true }), promptsStore.count(prisma)]);
    return { openai_configured: providers.some((row) => ai.keyPresent(row.apiKeyEnvVar)), prompts_count: promptsCount };
  });
}
