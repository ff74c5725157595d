import { useQuery } from '@tanstack/react-query';
import { apiRequest, statusOf } from '../../lib/api';
import { aiParserKeys, aiParserPaths, type LoadedPrompt, type ParserPrompt } from './api';

/** Document 2 §4: while none is saved (404) the page starts from the default prompt, to be saved as the first. */
async function loadPrompt(): Promise<LoadedPrompt> {
  try {
    return { ...(await apiRequest<ParserPrompt>('GET', aiParserPaths.prompt)), saved: true };
  } catch (error) {
    if (statusOf(error) !== 404) throw error;
    return { ...(await apiRequest<ParserPrompt>('GET', aiParserPaths.defaultPrompt)), saved: false };
  }
}

export const useParserPrompt = () => useQuery<LoadedPrompt>({ queryKey: aiParserKeys.prompt, queryFn: loadPrompt });
