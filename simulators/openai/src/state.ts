import { personas, type Persona, type PersonaName } from './personas';

/** One scripted assistant answer: text, or tool calls (arguments as an object or a raw string). */
export interface ScriptedReply {
  content?: string | null;
  toolCalls?: { name: string; arguments: unknown }[];
  finishReason?: 'stop' | 'length' | 'tool_calls' | 'content_filter';
}

/** Answers `reply` when the last user message contains `contains` (case-insensitive) or matches `pattern`. */
export interface ReplyRule {
  contains?: string;
  pattern?: string;
  reply: ScriptedReply;
}

/** One HTTP request on the imitated paths, counted before any fault fires, so SDK retries show. */
export interface Attempt {
  at: string;
  method: string;
  path: string;
  /** X-Stainless-Retry-Count: 0 on the SDK's first try. */
  retryCount: number | null;
}

export interface OpenAiOptions {
  apiKeys: string[];
  persona: PersonaName;
}

export const defaultOpenAiOptions = (): OpenAiOptions => ({ apiKeys: ['sk-sim-test-key'], persona: 'openai' });

export class OpenAiState {
  options: OpenAiOptions;
  script: ScriptedReply[] = [];
  rules: ReplyRule[] = [];
  attempts: Attempt[] = [];
  /** Chat request bodies received, newest first, so tests can assert on prompts. */
  chatRequests: Record<string, unknown>[] = [];

  constructor(private readonly initialOptions: Partial<OpenAiOptions> = {}) {
    this.options = { ...defaultOpenAiOptions(), ...initialOptions };
  }

  get persona(): Persona {
    return personas[this.options.persona];
  }

  reset(): void {
    this.options = { ...defaultOpenAiOptions(), ...this.initialOptions };
    this.script = [];
    this.rules = [];
    this.attempts = [];
    this.chatRequests = [];
  }

  recordChat(body: Record<string, unknown>): void {
    this.chatRequests.unshift(body);
    if (this.chatRequests.length > 100) this.chatRequests.length = 100;
  }

  recordAttempt(attempt: Attempt): void {
    this.attempts.unshift(attempt);
    if (this.attempts.length > 1000) this.attempts.length = 1000;
  }
}
