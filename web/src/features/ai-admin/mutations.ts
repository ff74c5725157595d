import { apiRequest } from '../../lib/api';
import { useInvalidatingMutation, type CallerOptions } from '../../lib/mutation';
import {
  aiAdminKeys,
  aiAdminPaths,
  type DeleteConversationReply,
  type FlowCreate,
  type FlowReply,
  type FlowTestReply,
  type KnowledgeCreate,
  type KnowledgeEntryReply,
  type MappingCreate,
  type MappingReply,
  type MappingUpdate,
  type ParserPromptReply,
  type ParserPromptSave,
  type PauseBody,
  type PauseReply,
  type PromptCreate,
  type PromptReply,
  type ProviderCreate,
  type ProviderReply,
  type ProviderUpdate,
  type SearchReply,
  type SuccessReply,
} from './api';

/** A prompt changes the list and the Status card's count; the parser's prompt is one of them. */
const promptKeys = [aiAdminKeys.prompts, aiAdminKeys.status, aiAdminKeys.parserPrompt, aiAdminKeys.parserPromptAlias];
/** A provider decides whether the AI is configured (the Status card). */
const providerKeys = [aiAdminKeys.providers, aiAdminKeys.status];
const knowledgeKeys = [aiAdminKeys.knowledgeAll, aiAdminKeys.categories];

export const useCreatePrompt = (options?: CallerOptions<PromptReply, PromptCreate>) =>
  useInvalidatingMutation((body: PromptCreate) => apiRequest<PromptReply>('POST', aiAdminPaths.prompts, body), promptKeys, options);

export const useUpdatePrompt = (options?: CallerOptions<PromptReply, { promptId: string; content: string }>) =>
  useInvalidatingMutation(({ promptId, content }: { promptId: string; content: string }) => apiRequest<PromptReply>('PUT', aiAdminPaths.prompt(promptId), { content }), promptKeys, options);

export const useDeletePrompt = (options?: CallerOptions<SuccessReply, string>) =>
  useInvalidatingMutation((promptId: string) => apiRequest<SuccessReply>('DELETE', aiAdminPaths.prompt(promptId)), promptKeys, options);

export const useCreateProvider = (options?: CallerOptions<ProviderReply, ProviderCreate>) =>
  useInvalidatingMutation((body: ProviderCreate) => apiRequest<ProviderReply>('POST', aiAdminPaths.providers, body), providerKeys, options);

/** The list's switch sends only `enabled`; the dialog every field. */
export const useUpdateProvider = (options?: CallerOptions<ProviderReply, { id: number; body: ProviderUpdate }>) =>
  useInvalidatingMutation(({ id, body }: { id: number; body: ProviderUpdate }) => apiRequest<ProviderReply>('PUT', aiAdminPaths.provider(id), body), providerKeys, options);

export const useDeleteProvider = (options?: CallerOptions<SuccessReply, number>) =>
  useInvalidatingMutation((id: number) => apiRequest<SuccessReply>('DELETE', aiAdminPaths.provider(id)), providerKeys, options);

export const useSaveParserPrompt = (options?: CallerOptions<ParserPromptReply, ParserPromptSave>) =>
  useInvalidatingMutation((body: ParserPromptSave) => apiRequest<ParserPromptReply>('PUT', aiAdminPaths.parserPrompt, body), promptKeys, options);

export const useCreateFlow = (options?: CallerOptions<FlowReply, FlowCreate>) =>
  useInvalidatingMutation((body: FlowCreate) => apiRequest<FlowReply>('POST', aiAdminPaths.flows, body), [aiAdminKeys.flows], options);

export const useDeleteFlow = (options?: CallerOptions<SuccessReply, string>) =>
  useInvalidatingMutation((name: string) => apiRequest<SuccessReply>('DELETE', aiAdminPaths.flow(name)), [aiAdminKeys.flows], options);

export const useCreateMapping = (options?: CallerOptions<MappingReply, MappingCreate>) =>
  useInvalidatingMutation((body: MappingCreate) => apiRequest<MappingReply>('POST', aiAdminPaths.mappings, body), [aiAdminKeys.mappings], options);

export const useUpdateMapping = (options?: CallerOptions<MappingReply, { id: number; body: MappingUpdate }>) =>
  useInvalidatingMutation(({ id, body }: { id: number; body: MappingUpdate }) => apiRequest<MappingReply>('PUT', aiAdminPaths.mapping(id), body), [aiAdminKeys.mappings], options);

export const useDeleteMapping = (options?: CallerOptions<SuccessReply, number>) =>
  useInvalidatingMutation((id: number) => apiRequest<SuccessReply>('DELETE', aiAdminPaths.mapping(id)), [aiAdminKeys.mappings], options);

/** A test changes nothing stored. */
export const useTestFlowRouting = (options?: CallerOptions<FlowTestReply, string>) =>
  useInvalidatingMutation((productName: string) => apiRequest<FlowTestReply>('POST', aiAdminPaths.flowTest, { productName }), [], options);

export const useCreateKnowledge = (options?: CallerOptions<KnowledgeEntryReply, KnowledgeCreate>) =>
  useInvalidatingMutation((body: KnowledgeCreate) => apiRequest<KnowledgeEntryReply>('POST', aiAdminPaths.knowledge, body), knowledgeKeys, options);

export const useUpdateKnowledge = (options?: CallerOptions<KnowledgeEntryReply, { id: number; body: KnowledgeCreate }>) =>
  useInvalidatingMutation(({ id, body }: { id: number; body: KnowledgeCreate }) => apiRequest<KnowledgeEntryReply>('PUT', aiAdminPaths.knowledgeEntry(id), body), knowledgeKeys, options);

export const useDeleteKnowledge = (options?: CallerOptions<SuccessReply, number>) =>
  useInvalidatingMutation((id: number) => apiRequest<SuccessReply>('DELETE', aiAdminPaths.knowledgeEntry(id)), knowledgeKeys, options);

/** The test search changes nothing stored. */
export const useSearchKnowledge = (options?: CallerOptions<SearchReply, string>) =>
  useInvalidatingMutation((query: string) => apiRequest<SearchReply>('POST', aiAdminPaths.search, { query }), [], options);

export const usePauseAutomation = (options?: CallerOptions<PauseReply, { userId: string; body: PauseBody }>) =>
  useInvalidatingMutation(({ userId, body }: { userId: string; body: PauseBody }) => apiRequest<PauseReply>('POST', aiAdminPaths.pause(userId), body), [aiAdminKeys.conversations], options);

export const useResumeAutomation = (options?: CallerOptions<SuccessReply, string>) =>
  useInvalidatingMutation((userId: string) => apiRequest<SuccessReply>('POST', aiAdminPaths.resume(userId)), [aiAdminKeys.conversations], options);

export const useDeleteConversation = (options?: CallerOptions<DeleteConversationReply, string>) =>
  useInvalidatingMutation((userId: string) => apiRequest<DeleteConversationReply>('DELETE', aiAdminPaths.conversation(userId)), [aiAdminKeys.conversations], options);
