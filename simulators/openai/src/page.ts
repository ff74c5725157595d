import { actionButton, htmlTable, type PageSection } from '@bo/sim-kit';
import type { OpenAiState } from './state';

export function openAiSections(state: OpenAiState): PageSection[] {
  const persona = state.persona;
  const personaButtons = (['openai', 'gemini', 'anthropic'] as const).map((name) => actionButton(`Persona: ${name}`, '/__sim/options', { persona: name })).join('');
  const chats = state.chatRequests.slice(0, 20).map((body) => ({ model: body.model, messages: body.messages, tools: Array.isArray(body.tools) ? body.tools.length : 0 }));
  return [
    {
      title: `Persona ${persona.name}: baseURL <root>${persona.prefix} — keys ${state.options.apiKeys.join(', ')}`,
      html: `<p>${personaButtons}</p><p>Embeddings: ${persona.embeddings ? 'yes' : 'no'}</p>${htmlTable(persona.models as never, ['id', 'kind', 'snapshot', 'dimensions'])}`,
    },
    {
      title: 'Scripted replies (queue) and rules',
      html:
        htmlTable(state.script as never, ['content', 'toolCalls', 'finishReason']) +
        htmlTable(state.rules as never, ['contains', 'pattern', 'reply']) +
        `<p>${actionButton('Add: rate limit 429 once', '/__sim/errors', { kind: 'rate_limit', times: 1, retryAfterMs: '10' })}${actionButton('Add: insufficient_quota once', '/__sim/errors', { kind: 'insufficient_quota', times: 1 })}${actionButton('Add: 500 once', '/__sim/errors', { kind: 'server_error', times: 1 })}</p>`,
    },
    { title: 'Chat requests (newest first)', html: htmlTable(chats, ['model', 'messages', 'tools']) },
    { title: `Attempts (${state.attempts.length}; retry count from X-Stainless-Retry-Count)`, html: htmlTable(state.attempts.slice(0, 50) as never, ['at', 'method', 'path', 'retryCount']) },
  ];
}
