import { z } from 'zod';
import { defineRoute, successReply } from './contract';
import { idParam, wholeNumber } from './fields';

/**
 * ai-chat's routes for /ai-admin's flow cards (issue 21, document 2 §3, §5, §7.1): the ManyChat
 * flows the chat may send, the mappings that route a product to a flow (higher priority checked
 * first, §9), the routing tester, and the Status card.
 */
const chat = 'Chat';
const ai = 'AI';

/** Document 2 §5: the product texts of the flow cards. */
export const FLOW_FIELDS_REQUIRED = 'Both name and flow ID are required.';
export const FLOW_MAPPING_FIELDS_REQUIRED = 'Match value and flow namespace are required.';
export const FLOW_TEST_PRODUCT_REQUIRED = 'Please enter a product name to test.';

const required = (message: string, max: number) => z.string({ error: message }).trim().min(1, message).max(max, `At most ${max} characters`);
/** Optional text: trimmed; blank or null is no value (null). */
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `At most ${max} characters`)
    .nullish()
    .transform((value) => (value ? value : value === undefined ? undefined : null));

/** Document 2 §3 "Chat flow": the name is kept lowercase, as the chat names a flow to send. */
export const chatFlowSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  flowId: z.string(),
  description: z.string().nullable(),
  createdAt: z.string(),
});
export type ChatFlow = z.infer<typeof chatFlowSchema>;

export const FLOW_NAME_MAX = 100;
/** A flow's name in a path: trimmed and lowercased like the name that was saved. */
const flowNameParams = z.object({
  name: z.string().trim().min(1, 'Flow name is required').max(FLOW_NAME_MAX, `At most ${FLOW_NAME_MAX} characters`).transform((name) => name.toLowerCase()),
});

export const flowMatchTypes = ['exact', 'keyword'] as const;
export type FlowMatchType = (typeof flowMatchTypes)[number];

/** Document 2 §3 "Flow mapping". */
export const flowMappingSchema = z.object({
  id: z.number().int(),
  matchType: z.enum(flowMatchTypes),
  matchValue: z.string(),
  flowNamespace: z.string(),
  flowName: z.string().nullable(),
  /** Higher is checked first (document 2 §9). */
  priority: z.number().int(),
  enabled: z.boolean(),
});
export type FlowMapping = z.infer<typeof flowMappingSchema>;

export const FLOW_MAPPING_PRIORITY_MAX = 1000;
const priorityMessage = `Priority must be a whole number from -${FLOW_MAPPING_PRIORITY_MAX} to ${FLOW_MAPPING_PRIORITY_MAX}`;
// Match value and namespace first: a form sent with both blank is told the page's text.
const mappingFields = z.object({
  matchValue: required(FLOW_MAPPING_FIELDS_REQUIRED, 200),
  flowNamespace: required(FLOW_MAPPING_FIELDS_REQUIRED, 200),
  matchType: z.enum(flowMatchTypes, { error: 'Match type must be exact or keyword' }),
  flowName: optionalText(200),
  priority: wholeNumber('Priority must be a whole number').min(-FLOW_MAPPING_PRIORITY_MAX, priorityMessage).max(FLOW_MAPPING_PRIORITY_MAX, priorityMessage),
  enabled: z.boolean({ error: 'Enabled must be true or false' }),
});
const mappingBody = mappingFields.extend({ priority: mappingFields.shape.priority.default(0), enabled: mappingFields.shape.enabled.default(true) });

/** Document 2 §3 "Flow test result": which enabled mapping the chat would route a product to. */
export const flowTestResultSchema = z.object({
  matched: z.boolean(),
  matchType: z.enum(flowMatchTypes).nullable(),
  flowNamespace: z.string().nullable(),
  mapping: z.object({ matchValue: z.string(), priority: z.number().int(), flowName: z.string().nullable() }).nullable(),
});
export type FlowTestResult = z.infer<typeof flowTestResultSchema>;

/** Document 2 §3 "AI status", the Status card. */
export const aiStatusSchema = z.object({
  /** Whether at least one enabled AI provider has its API key variable set. */
  openai_configured: z.boolean(),
  prompts_count: z.number().int(),
});

const exampleFlow: ChatFlow = { id: 1, name: 'netflix_renewal', flowId: 'content20261126080000_123456', description: 'Netflix renewal questions', createdAt: '2026-11-26T08:00:00.000Z' };
const exampleMapping: FlowMapping = { id: 1, matchType: 'keyword', matchValue: 'netflix', flowNamespace: 'content20261126080000_123456', flowName: 'netflix_renewal', priority: 10, enabled: true };
const mappingIdParams = z.object({ id: idParam });

export const listChatFlows = defineRoute({
  owner: 'ai-chat', method: 'GET', path: '/api/admin/flows', access: 'admin', category: chat,
  reply: z.object({ success: z.boolean(), data: z.array(chatFlowSchema) }),
  summary: 'The ManyChat flows the chat may send, by name',
  example: { reply: { success: true, data: [exampleFlow] } },
});

export const createChatFlow = defineRoute({
  owner: 'ai-chat', method: 'POST', path: '/api/admin/flows', access: 'admin', category: chat,
  body: z.object({
    name: required(FLOW_FIELDS_REQUIRED, FLOW_NAME_MAX),
    flowId: required(FLOW_FIELDS_REQUIRED, 200),
    description: optionalText(1000),
  }),
  reply: z.object({ success: z.boolean(), data: chatFlowSchema }),
  summary: 'Add a flow (its name kept lowercase; 409 when a flow has that name)',
  example: { body: { name: 'Netflix_Renewal', flowId: 'content20261126080000_123456', description: 'Netflix renewal questions' }, reply: { success: true, data: exampleFlow } },
});

export const deleteChatFlow = defineRoute({
  owner: 'ai-chat', method: 'DELETE', path: '/api/admin/flows/:name', access: 'admin', category: chat,
  params: flowNameParams,
  reply: successReply,
  summary: 'Delete a flow by its name (case ignored)',
  example: { params: { name: 'netflix_renewal' }, reply: { success: true } },
});

export const listFlowMappings = defineRoute({
  owner: 'ai-chat', method: 'GET', path: '/api/admin/flow-mappings', access: 'admin', category: chat,
  reply: z.object({ success: z.boolean(), data: z.array(flowMappingSchema) }),
  summary: 'Flow mappings in the order they are checked (highest priority first, then the oldest)',
  example: { reply: { success: true, data: [exampleMapping] } },
});

export const createFlowMapping = defineRoute({
  owner: 'ai-chat', method: 'POST', path: '/api/admin/flow-mappings', access: 'admin', category: chat,
  body: mappingBody,
  reply: z.object({ success: z.boolean(), data: flowMappingSchema }),
  summary: 'Add a flow mapping: exact (the product name is the match value) or keyword (it contains it), case ignored',
  example: {
    body: { matchType: 'keyword', matchValue: 'netflix', flowNamespace: 'content20261126080000_123456', flowName: 'netflix_renewal', priority: 10, enabled: true },
    reply: { success: true, data: exampleMapping },
  },
});

export const updateFlowMapping = defineRoute({
  owner: 'ai-chat', method: 'PUT', path: '/api/admin/flow-mappings/:id', access: 'admin', category: chat,
  params: mappingIdParams,
  // Without the create defaults: a field left out stays as it is.
  body: mappingFields.partial(),
  reply: z.object({ success: z.boolean(), data: flowMappingSchema }),
  summary: 'Change a flow mapping (enabled is switched here, in the edit dialog)',
  example: { params: { id: 1 }, body: { priority: 20, enabled: false }, reply: { success: true, data: { ...exampleMapping, priority: 20, enabled: false } } },
});

export const deleteFlowMapping = defineRoute({
  owner: 'ai-chat', method: 'DELETE', path: '/api/admin/flow-mappings/:id', access: 'admin', category: chat,
  params: mappingIdParams,
  reply: successReply,
  summary: 'Delete a flow mapping',
  example: { params: { id: 1 }, reply: { success: true } },
});

export const testFlowRouting = defineRoute({
  owner: 'ai-chat', method: 'POST', path: '/api/admin/flow-mappings/test', access: 'admin', category: chat,
  body: z.object({ productName: required(FLOW_TEST_PRODUCT_REQUIRED, 500) }),
  reply: flowTestResultSchema,
  summary: 'The flow routing tester: the enabled mapping a product name is routed to (matched false and nulls when none)',
  example: {
    body: { productName: 'Netflix Premium - 1 сар' },
    reply: { matched: true, matchType: 'keyword', flowNamespace: 'content20261126080000_123456', mapping: { matchValue: 'netflix', priority: 10, flowName: 'netflix_renewal' } },
  },
});

export const getAiStatus = defineRoute({
  owner: 'ai-chat', method: 'GET', path: '/api/admin/ai-status', access: 'admin', category: ai,
  reply: aiStatusSchema,
  summary: "The Status card: whether an enabled AI provider has its API key variable set (openai_configured), and how many system prompts there are",
  example: { reply: { openai_configured: true, prompts_count: 3 } },
});

export const aiAdminRoutes = [
  listChatFlows, createChatFlow, deleteChatFlow,
  listFlowMappings, createFlowMapping, updateFlowMapping, deleteFlowMapping, testFlowRouting,
  getAiStatus,
];
