import { apiRequest } from '../../lib/api';
import { useInvalidatingMutation, type CallerOptions } from '../../lib/mutation';
import { aiParserKeys, aiParserPaths, type ParserTest, type ParserTestReply, type PromptSave, type PromptSaveReply } from './api';

export const useSavePrompt = (options?: CallerOptions<PromptSaveReply, PromptSave>) =>
  useInvalidatingMutation((prompt: PromptSave) => apiRequest<PromptSaveReply>('PUT', aiParserPaths.prompt, prompt), [aiParserKeys.prompt], options);

/** A test changes nothing stored. */
export const useTestParser = (options?: CallerOptions<ParserTestReply, ParserTest>) =>
  useInvalidatingMutation((test: ParserTest) => apiRequest<ParserTestReply>('POST', aiParserPaths.test, test), [], options);
