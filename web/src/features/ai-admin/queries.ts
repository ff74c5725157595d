import { useQuery } from '@tanstack/react-query';
import { apiRequest, statusOf } from '../../lib/api';
import {
  aiAdminKeys,
  aiAdminPaths,
  type AiStatus,
  type CategoriesReply,
  type ConversationsReply,
  type FlowsReply,
  type KnowledgeReply,
  type MappingsReply,
  type ParserPrompt,
  type ParserPromptState,
  type PromptsReply,
  type ProvidersReply,
  type TemplatesReply,
} from './api';

export const useAiStatus = () => useQuery<AiStatus>({ queryKey: aiAdminKeys.status });
export const usePrompts = () => useQuery<PromptsReply>({ queryKey: aiAdminKeys.prompts });
export const useProviders = () => useQuery<ProvidersReply>({ queryKey: aiAdminKeys.providers });
export const useFlows = () => useQuery<FlowsReply>({ queryKey: aiAdminKeys.flows });
export const useMappings = () => useQuery<MappingsReply>({ queryKey: aiAdminKeys.mappings });
/** '' lists every category. */
export const useKnowledge = (category: string) => useQuery<KnowledgeReply>({ queryKey: aiAdminKeys.knowledge(category) });
export const useKnowledgeCategories = () => useQuery<CategoriesReply>({ queryKey: aiAdminKeys.categories });
export const useConversations = () => useQuery<ConversationsReply>({ queryKey: aiAdminKeys.conversations });
export const useReminderTemplates = () => useQuery<TemplatesReply>({ queryKey: aiAdminKeys.templates });

/** Document 2 §4: the e-mail parser's prompt, or null while none is saved (create mode: the read answers 404). */
async function loadParserPrompt(): Promise<ParserPromptState> {
  try {
    return await apiRequest<ParserPrompt>('GET', aiAdminPaths.parserPrompt);
  } catch (error) {
    if (statusOf(error) === 404) return null;
    throw error;
  }
}

export const useParserPrompt = () => useQuery<ParserPromptState>({ queryKey: aiAdminKeys.parserPrompt, queryFn: loadParserPrompt });

/** The default prompt, read when wanted (create mode starts from it; update mode reads it on request). */
export const useDefaultParserPrompt = (wanted: boolean) => useQuery<ParserPrompt>({ queryKey: aiAdminKeys.parserDefault, enabled: wanted });
