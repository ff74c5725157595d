/**
 * The /ai-admin page's calls. Their shapes are the route contracts' (types only: no zod in the
 * bundle); the lists and limits that mirror proto's values are checked against them in api.test.ts.
 */
import type {
  createAiProvider,
  createChatFlow,
  createFlowMapping,
  createKnowledgeEntry,
  createPrompt,
  deleteConversation,
  getAiStatus,
  getEmailParserPrompt,
  listAiProviders,
  listChatFlows,
  listConversations,
  listFlowMappings,
  listKnowledge,
  listKnowledgeCategories,
  listManyChatTemplates,
  listPrompts,
  pauseAutomation,
  ReplyOf,
  RequestBodyOf,
  saveEmailParserPrompt,
  searchKnowledge,
  testFlowRouting,
  updateAiProvider,
  updateFlowMapping,
  updateKnowledgeEntry,
  updatePrompt,
} from '@bo/proto';
import { apiKey, apiPath, queryString } from '../../lib/paths';

export type { AiProvider, ChatFlow, Conversation, FlowMapping, FlowMatchType, FlowTestResult, KnowledgeEntry, KnowledgeSearchHit, KnowledgeSearchMode, SystemPrompt } from '@bo/proto';

export type AiStatus = ReplyOf<typeof getAiStatus>;
export type PromptsReply = ReplyOf<typeof listPrompts>;
export type PromptCreate = RequestBodyOf<typeof createPrompt>;
export type PromptUpdate = RequestBodyOf<typeof updatePrompt>;
export type PromptReply = ReplyOf<typeof createPrompt>;
export type ProvidersReply = ReplyOf<typeof listAiProviders>;
export type ProviderCreate = RequestBodyOf<typeof createAiProvider>;
export type ProviderUpdate = RequestBodyOf<typeof updateAiProvider>;
export type ProviderReply = ReplyOf<typeof createAiProvider>;
export type ParserPrompt = ReplyOf<typeof getEmailParserPrompt>;
export type ParserPromptSave = RequestBodyOf<typeof saveEmailParserPrompt>;
export type ParserPromptReply = ReplyOf<typeof saveEmailParserPrompt>;
export type FlowsReply = ReplyOf<typeof listChatFlows>;
export type FlowCreate = RequestBodyOf<typeof createChatFlow>;
export type FlowReply = ReplyOf<typeof createChatFlow>;
export type MappingsReply = ReplyOf<typeof listFlowMappings>;
export type MappingCreate = RequestBodyOf<typeof createFlowMapping>;
export type MappingUpdate = RequestBodyOf<typeof updateFlowMapping>;
export type MappingReply = ReplyOf<typeof createFlowMapping>;
export type FlowTestReply = ReplyOf<typeof testFlowRouting>;
export type KnowledgeReply = ReplyOf<typeof listKnowledge>;
export type CategoriesReply = ReplyOf<typeof listKnowledgeCategories>;
export type KnowledgeCreate = RequestBodyOf<typeof createKnowledgeEntry>;
export type KnowledgeUpdate = RequestBodyOf<typeof updateKnowledgeEntry>;
export type KnowledgeEntryReply = ReplyOf<typeof createKnowledgeEntry>;
export type SearchReply = ReplyOf<typeof searchKnowledge>;
export type ConversationsReply = ReplyOf<typeof listConversations>;
export type PauseBody = RequestBodyOf<typeof pauseAutomation>;
export type PauseReply = ReplyOf<typeof pauseAutomation>;
export type DeleteConversationReply = ReplyOf<typeof deleteConversation>;
export type TemplatesReply = ReplyOf<typeof listManyChatTemplates>;
export type SuccessReply = { success: boolean };

/** The e-mail parser's prompt as the card shows it: the saved one, or null while none is (the read answers 404). */
export type ParserPromptState = ParserPrompt | null;

/** Document 2 §9: previews of a prompt's content, of a knowledge entry in the table and in search results. */
export const PROMPT_PREVIEW_CHARS = 200;
export const KNOWLEDGE_TABLE_PREVIEW_CHARS = 100;
export const KNOWLEDGE_RESULT_PREVIEW_CHARS = 200;

/** Document 2 §9: a search hit's similarity badge is the default style from 0.8, secondary from 0.6, else outline. */
export const SIMILARITY_STRONG = 0.8;
export const SIMILARITY_FAIR = 0.6;

/** The chat's own prompt (ai-chat's CHAT_PROMPT_ID): while none is saved, the chat uses its built-in default. */
export const CHAT_PROMPT_ID = 'chat_assistant';

/** Mirrors proto's aiProviderFamilies and aiProviderModels: the families, and the models the form offers for each. */
export const providerFamilies = ['openai', 'gemini', 'claude'] as const;
export type ProviderFamily = (typeof providerFamilies)[number];
export const providerModels: Record<ProviderFamily, readonly string[]> = {
  openai: ['gpt-4o-mini', 'gpt-4o', 'gpt-4.1-mini', 'gpt-5-mini'],
  gemini: ['gemini-2.5-flash', 'gemini-2.5-pro'],
  claude: ['claude-sonnet-4-5', 'claude-haiku-4-5'],
};
/** The variable each family's key is usually kept in: what the form suggests (the name, never a key). */
export const suggestedKeyVariable: Record<ProviderFamily, string> = { openai: 'OPENAI_API_KEY', gemini: 'GEMINI_API_KEY', claude: 'CLAUDE_API_KEY' };

export const flowMatchTypeList = ['exact', 'keyword'] as const;

/** Mirrors proto's MAX_PAUSE_HOURS: a pause lasts at most a week, or until resumed. */
export const MAX_PAUSE_HOURS = 168;
export const DEFAULT_PAUSE_HOURS = 2;

/** The renewal buttons appended to the expiry notification: 1 to 6 months. */
export const RENEWAL_BUTTON_MONTHS = [1, 2, 3, 4, 5, 6] as const;
/** Document 2 §2.1: the expiry notification's variables. */
export const expiryTemplateVariables = ['serviceName', 'profileNumber', 'formattedExpiry', 'monthlyPrice'] as const;
export type ExpiryTemplateVariable = (typeof expiryTemplateVariables)[number];

/**
 * The expiry notification as the chat sends it, Mongolian first and English after like every chat
 * message (a message's text, not the interface's: it is the same in both languages of the page).
 */
export const expiryTemplateLines = [
  '⏰ Таны {serviceName} эрх удахгүй дуусна / Your {serviceName} access expires soon',
  '',
  '👤 Профайл / Profile: {profileNumber}',
  '📅 Дуусах хугацаа / Expires: {formattedExpiry}',
  '💰 Сарын төлбөр / Price per month: {monthlyPrice}₮',
  '',
  'Сунгах хугацаагаа сонгоно уу / Choose how long to renew:',
] as const;
/** A renewal button's caption: months in Mongolian and English. */
export const renewalButtonCaption = (months: number) => `${months} сар / ${months} month${months === 1 ? '' : 's'}`;

/** The sample the preview fills the template with (not a real key). */
export const expirySample: Record<ExpiryTemplateVariable, string> = {
  serviceName: 'Netflix',
  profileNumber: '3',
  formattedExpiry: '2026-12-23 16:00',
  monthlyPrice: '35,000',
};

/** The template's text with every `{variable}` replaced by its value. */
export function fillTemplate(lines: readonly string[], values: Record<string, string>): string {
  return lines.join('\n').replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
}

/** The first `chars` characters, with an ellipsis when there was more. */
export function preview(text: string, chars: number): string {
  return text.length > chars ? `${text.slice(0, chars)}…` : text;
}

/** Document 2 §9's badge style for a similarity: solid (default), subtle (secondary) or outline. */
export function similarityVariant(similarity: number): 'solid' | 'subtle' | 'outline' {
  if (similarity >= SIMILARITY_STRONG) return 'solid';
  if (similarity >= SIMILARITY_FAIR) return 'subtle';
  return 'outline';
}

/** Document 2 §5: a priority is parsed as an integer, 0 when blank or not a number. */
export function parsePriority(text: string): number {
  const parsed = Number.parseInt(text.trim(), 10);
  return Number.isNaN(parsed) ? 0 : parsed;
}

/** A pause's hours as typed: a whole number from 1 to MAX_PAUSE_HOURS, else null. */
export function parsePauseHours(text: string): number | null {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return null;
  const hours = Number(trimmed);
  return hours >= 1 && hours <= MAX_PAUSE_HOURS ? hours : null;
}

/** Whether every one of the values has something besides spaces. */
export const allFilled = (...values: string[]) => values.every((value) => value.trim() !== '');

const knowledgeBase = '/api/admin/knowledge';

/** Query keys are GET paths (lib/api.ts pathOfKey). */
export const aiAdminKeys = {
  status: apiKey('/api/admin/ai-status'),
  prompts: apiKey('/api/admin/prompts'),
  providers: apiKey('/api/admin/ai-providers'),
  parserPrompt: apiKey('/api/system-prompts/email_parser'),
  /** The /ai-parser-config page's read of the same prompt (refreshed when this page saves it). */
  parserPromptAlias: apiKey('/api/system-prompts/email_parser_prompt'),
  parserDefault: apiKey('/api/system-prompts/email_parser/default'),
  flows: apiKey('/api/admin/flows'),
  mappings: apiKey('/api/admin/flow-mappings'),
  /** Every knowledge list, whatever its category filter. */
  knowledgeAll: apiKey(knowledgeBase),
  knowledge: (category: string) => (category ? apiKey(knowledgeBase, queryString({ category })) : apiKey(knowledgeBase)),
  categories: apiKey('/api/admin/knowledge/categories'),
  conversations: apiKey('/api/admin/conversations'),
  /** The reminder templates /manychat-admin previews (the same cache entry). */
  templates: apiKey('/api/manychat/templates'),
} as const;

export const aiAdminPaths = {
  prompts: '/api/admin/prompts',
  prompt: (promptId: string) => apiPath('/api/admin/prompts/:promptId', { promptId }),
  providers: '/api/admin/ai-providers',
  provider: (id: number) => apiPath('/api/admin/ai-providers/:id', { id }),
  parserPrompt: '/api/system-prompts/email_parser',
  parserDefault: '/api/system-prompts/email_parser/default',
  flows: '/api/admin/flows',
  flow: (name: string) => apiPath('/api/admin/flows/:name', { name }),
  mappings: '/api/admin/flow-mappings',
  mapping: (id: number) => apiPath('/api/admin/flow-mappings/:id', { id }),
  flowTest: '/api/admin/flow-mappings/test',
  knowledge: knowledgeBase,
  knowledgeEntry: (id: number) => apiPath('/api/admin/knowledge/:id', { id }),
  search: '/api/admin/knowledge/search',
  pause: (userId: string) => apiPath('/api/admin/conversations/:userId/pause', { userId }),
  resume: (userId: string) => apiPath('/api/admin/conversations/:userId/resume', { userId }),
  conversation: (userId: string) => apiPath('/api/admin/conversations/:userId', { userId }),
} as const;
