/** Provider personas: the same OpenAI-compatible surface under another path prefix and model set. */
export type PersonaName = 'openai' | 'gemini' | 'anthropic';

export interface ModelInfo {
  id: string;
  kind: 'chat' | 'embedding';
  owned_by: string;
  /** The dated snapshot a chat answer names in `model`. */
  snapshot?: string;
  dimensions?: number;
  /** Whether the `dimensions` request field is accepted. */
  shortenable?: boolean;
}

export interface Persona {
  name: PersonaName;
  /** Path prefix the client's baseURL ends with. */
  prefix: string;
  models: ModelInfo[];
  embeddings: boolean;
}

export const PREFIXES = ['/v1', '/v1beta/openai'];

export const personas: Record<PersonaName, Persona> = {
  openai: {
    name: 'openai',
    prefix: '/v1',
    embeddings: true,
    models: [
      { id: 'gpt-4o-mini', kind: 'chat', owned_by: 'system', snapshot: 'gpt-4o-mini-2024-07-18' },
      { id: 'gpt-4o', kind: 'chat', owned_by: 'system', snapshot: 'gpt-4o-2024-08-06' },
      { id: 'gpt-4.1-mini', kind: 'chat', owned_by: 'system', snapshot: 'gpt-4.1-mini-2025-04-14' },
      { id: 'gpt-5-mini', kind: 'chat', owned_by: 'system', snapshot: 'gpt-5-mini-2025-08-07' },
      { id: 'text-embedding-3-small', kind: 'embedding', owned_by: 'system', dimensions: 1536, shortenable: true },
      { id: 'text-embedding-3-large', kind: 'embedding', owned_by: 'system', dimensions: 3072, shortenable: true },
      { id: 'text-embedding-ada-002', kind: 'embedding', owned_by: 'openai-internal', dimensions: 1536, shortenable: false },
    ],
  },
  gemini: {
    name: 'gemini',
    prefix: '/v1beta/openai',
    embeddings: true,
    models: [
      { id: 'gemini-2.5-flash', kind: 'chat', owned_by: 'google' },
      { id: 'gemini-2.5-pro', kind: 'chat', owned_by: 'google' },
      { id: 'gemini-embedding-001', kind: 'embedding', owned_by: 'google', dimensions: 3072, shortenable: true },
    ],
  },
  anthropic: {
    name: 'anthropic',
    prefix: '/v1',
    embeddings: false,
    models: [
      { id: 'claude-sonnet-4-5', kind: 'chat', owned_by: 'anthropic' },
      { id: 'claude-haiku-4-5', kind: 'chat', owned_by: 'anthropic' },
    ],
  },
};
