import type { FaultBook } from '@bo/sim-kit';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { errorPresets } from './errors';
import type { OpenAiState } from './state';

const scriptedReplySchema = z.object({
  content: z.string().nullable().optional(),
  toolCalls: z.array(z.object({ name: z.string().min(1), arguments: z.unknown() })).optional(),
  finishReason: z.enum(['stop', 'length', 'tool_calls', 'content_filter']).optional(),
});
const ruleSchema = z
  .object({ contains: z.string().min(1).optional(), pattern: z.string().min(1).optional(), reply: scriptedReplySchema })
  .refine((rule) => (rule.contains === undefined) !== (rule.pattern === undefined), 'give exactly one of contains or pattern');
const optionsSchema = z.object({ apiKeys: z.array(z.string().min(1)).min(1), persona: z.enum(['openai', 'gemini', 'anthropic']) }).partial();
const errorSchema = z.object({
  kind: z.enum(Object.keys(errorPresets) as [keyof typeof errorPresets]),
  times: z.number().int().positive().optional(),
  pathPrefix: z.string().optional(),
  /** Seconds (or an HTTP date), sent as retry-after. */
  retryAfter: z.string().optional(),
  retryAfterMs: z.string().optional(),
  shouldRetry: z.boolean().optional(),
});

/** Turns an OpenAI error preset into a kit fault rule carrying OpenAI's body and retry headers. */
export function presetFault(input: z.infer<typeof errorSchema>) {
  const error = errorPresets[input.kind]();
  const headers: Record<string, string> = {};
  if (input.retryAfter !== undefined) headers['retry-after'] = input.retryAfter;
  if (input.retryAfterMs !== undefined) headers['retry-after-ms'] = input.retryAfterMs;
  if (input.shouldRetry !== undefined) headers['x-should-retry'] = String(input.shouldRetry);
  return { kind: 'status' as const, status: error.status, body: error.toBody(), headers, times: input.times, pathPrefix: input.pathPrefix };
}

/** /__sim/ routes: scripted replies, rules, options (persona, keys), attempts, error presets. */
export function registerControlRoutes(app: FastifyInstance, state: OpenAiState, faults: FaultBook): void {
  const parse = <T>(schema: z.ZodType<T>, body: unknown) => {
    const parsed = schema.safeParse(body);
    if (!parsed.success) throw Object.assign(new Error('invalid request'), { statusCode: 400, issues: parsed.error.issues });
    return parsed.data;
  };

  app.get('/__sim/script', async () => ({ script: state.script }));
  app.post('/__sim/script', async (request) => {
    state.script.push(...parse(z.array(scriptedReplySchema), [request.body].flat()));
    return { script: state.script };
  });
  app.delete('/__sim/script', async () => ({ script: (state.script = []) }));

  app.get('/__sim/rules', async () => ({ rules: state.rules }));
  app.post('/__sim/rules', async (request) => {
    state.rules.push(...parse(z.array(ruleSchema), [request.body].flat()));
    return { rules: state.rules };
  });
  app.delete('/__sim/rules', async () => ({ rules: (state.rules = []) }));

  app.get('/__sim/options', async () => state.options);
  app.post('/__sim/options', async (request) => Object.assign(state.options, parse(optionsSchema, request.body)));

  app.get('/__sim/attempts', async () => ({ attempts: state.attempts }));
  app.delete('/__sim/attempts', async () => ({ attempts: (state.attempts = []) }));
  app.get('/__sim/chat-requests', async () => ({ requests: state.chatRequests }));

  app.post('/__sim/errors', async (request) => ({ fault: faults.add(presetFault(parse(errorSchema, request.body))) }));
}
