import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { assistantMessage, checkMessages, decideTurn, limitLength, streamChunks, usageOf, type Json } from './chat';
import { countTokens, embedText, toBase64 } from './embeddings';
import { invalidRequest, invalidUrl, modelNotFound, OpenAiError } from './errors';
import { PREFIXES, type ModelInfo } from './personas';
import type { OpenAiState } from './state';

const CREATED = 1_700_000_000;
let completionCounter = 0;

const isImitated = (path: string) => PREFIXES.some((prefix) => path.startsWith(`${prefix}/`));

/** The OpenAI-compatible surface under every persona prefix; only the active persona's prefix answers. */
export function registerOpenAiApi(app: FastifyInstance, state: OpenAiState): void {
  // Counted on the raw server, ahead of the kit's fault hook, so faulted and dropped tries count too.
  app.server.on('request', (raw) => {
    const path = (raw.url ?? '').split('?')[0];
    if (!isImitated(path)) return;
    const header = raw.headers['x-stainless-retry-count'];
    state.recordAttempt({ at: new Date().toISOString(), method: raw.method ?? '', path, retryCount: header === undefined ? null : Number(header) });
  });

  app.addHook('onRequest', async (request, reply) => {
    const path = request.url.split('?')[0];
    if (!isImitated(path)) return;
    reply.headers({
      'x-request-id': `req_${randomBytes(16).toString('hex')}`,
      'openai-processing-ms': '1',
      'x-ratelimit-limit-requests': '10000',
      'x-ratelimit-remaining-requests': '9999',
      'x-ratelimit-reset-requests': '6ms',
      'x-ratelimit-limit-tokens': '10000000',
      'x-ratelimit-remaining-tokens': '9999000',
      'x-ratelimit-reset-tokens': '0s',
    });
    const auth = request.headers.authorization ?? '';
    const key = auth.startsWith('Bearer ') ? auth.slice(7).trim() : '';
    if (!key) return send(reply, new OpenAiError(401, "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).", 'invalid_request_error'));
    if (!state.options.apiKeys.includes(key)) {
      const shown = key.length > 8 ? `${key.slice(0, 3)}${'*'.repeat(key.length - 7)}${key.slice(-4)}` : key;
      return send(reply, new OpenAiError(401, `Incorrect API key provided: ${shown}. You can find your API key at https://platform.openai.com/account/api-keys.`, 'invalid_request_error', 'invalid_api_key'));
    }
  });

  // Framework errors (unparsable JSON, unknown paths) in each surface's own error shape.
  app.setErrorHandler((error: Error & { statusCode?: number; issues?: unknown }, request, reply) => {
    const status = error.statusCode ?? 500;
    if (!isImitated(request.url.split('?')[0])) return reply.code(status).send({ error: error.message, details: error.issues });
    if (status >= 500) return send(reply, new OpenAiError(500, 'The server had an error while processing your request.', 'server_error'));
    return send(reply, invalidRequest(`We could not parse the JSON body of your request. (${error.message})`));
  });
  app.setNotFoundHandler((request, reply) =>
    isImitated(request.url.split('?')[0]) ? send(reply, invalidUrl(request.method, request.url)) : reply.code(404).send({ error: 'not found' }),
  );

  const send = (reply: FastifyReply, error: OpenAiError) => reply.code(error.status).send(error.toBody());
  const model = (id: unknown, kind: ModelInfo['kind']): ModelInfo => {
    if (typeof id !== 'string' || !id) throw invalidRequest('you must provide a model parameter', 'model');
    const found = state.persona.models.find((m) => m.id === id);
    if (!found) throw modelNotFound(id);
    if (found.kind !== kind) throw invalidRequest(`The model \`${id}\` does not support this endpoint.`, 'model', 'model_not_supported');
    return found;
  };
  const modelView = (m: ModelInfo) => ({ id: m.id, object: 'model', created: CREATED, owned_by: m.owned_by });

  for (const prefix of PREFIXES) {
    const route = (method: 'GET' | 'POST', path: string, handle: (request: FastifyRequest, reply: FastifyReply) => unknown, needsEmbeddings = false) =>
      app.route({
        method,
        url: `${prefix}${path}`,
        handler: async (request, reply) => {
          try {
            if (prefix !== state.persona.prefix || (needsEmbeddings && !state.persona.embeddings)) throw invalidUrl(request.method, request.url);
            return await handle(request, reply);
          } catch (error) {
            if (error instanceof OpenAiError) return send(reply, error);
            throw error;
          }
        },
      });

    route('GET', '/models', () => ({ object: 'list', data: state.persona.models.map(modelView) }));
    route('GET', '/models/:id', (request) => {
      const id = (request.params as { id: string }).id;
      const found = state.persona.models.find((m) => m.id === id);
      if (!found) throw modelNotFound(id);
      return modelView(found);
    });
    route('POST', '/chat/completions', (request, reply) => chatCompletion(state, (request.body ?? {}) as Json, reply, model));
    route('POST', '/embeddings', (request) => embeddings((request.body ?? {}) as Json, model), true);
  }
}

function chatCompletion(state: OpenAiState, body: Json, reply: FastifyReply, model: (id: unknown, kind: 'chat') => ModelInfo) {
  const info = model(body.model, 'chat');
  const messages = checkMessages(body.messages);
  state.recordChat(body);
  const turn = limitLength(decideTurn(state, body, messages), body);
  const usage = usageOf(body, messages, turn);
  const count = typeof body.n === 'number' && body.n > 1 ? body.n : 1;
  const base = {
    id: `chatcmpl-sim${String(++completionCounter).padStart(8, '0')}`,
    created: Math.floor(Date.now() / 1000),
    model: info.snapshot ?? info.id,
    system_fingerprint: 'fp_sim0001',
    service_tier: 'default',
  };
  if (body.stream === true) {
    const lines = streamChunks(base, turn, usage, body.stream_options?.include_usage === true).map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`);
    reply.hijack();
    reply.raw.writeHead(200, { ...reply.getHeaders(), 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' } as never);
    reply.raw.end(`${lines.join('')}data: [DONE]\n\n`);
    return reply;
  }
  return {
    ...base,
    object: 'chat.completion',
    choices: Array.from({ length: count }, (_, index) => ({ index, message: assistantMessage(turn), logprobs: null, finish_reason: turn.finishReason })),
    usage,
  };
}

function embeddings(body: Json, model: (id: unknown, kind: 'embedding') => ModelInfo) {
  const info = model(body.model, 'embedding');
  const raw = body.input;
  const inputs: unknown[] = typeof raw === 'string' ? [raw] : Array.isArray(raw) && raw.length > 0 && raw.every((x) => typeof x === 'number') ? [raw] : Array.isArray(raw) ? raw : [];
  if (inputs.length === 0) throw invalidRequest("'input' is a required property", 'input');
  if (inputs.length > 2048) throw invalidRequest(`'$.input' is invalid: at most 2048 inputs per request (got ${inputs.length}).`, 'input');
  // token arrays are accepted as the API does; they are embedded as their number text
  const texts = inputs.map((item, i) => {
    const text = typeof item === 'string' ? item : Array.isArray(item) && item.every((x) => typeof x === 'number') ? item.join(' ') : null;
    if (text === null || text === '') throw invalidRequest(`'$.input[${i}]' is invalid. Please check the API reference: https://platform.openai.com/docs/api-reference.`, 'input');
    return text;
  });
  const native = info.dimensions ?? 1536;
  let dimensions = native;
  if (body.dimensions !== undefined && body.dimensions !== null) {
    if (!info.shortenable) throw invalidRequest('This model does not support specifying dimensions.', 'dimensions');
    if (!Number.isInteger(body.dimensions) || body.dimensions < 1 || body.dimensions > native)
      throw invalidRequest(`Invalid value for 'dimensions' = ${body.dimensions}. Must be between 1 and ${native}.`, 'dimensions');
    dimensions = body.dimensions;
  }
  const format = body.encoding_format ?? 'float';
  if (format !== 'float' && format !== 'base64') throw invalidRequest("'encoding_format' must be 'float' or 'base64'.", 'encoding_format');
  const tokens = texts.reduce((sum, text) => sum + countTokens(text), 0);
  return {
    object: 'list',
    data: texts.map((text, index) => {
      const vector = embedText(text, dimensions);
      return { object: 'embedding', index, embedding: format === 'base64' ? toBase64(vector) : vector };
    }),
    model: info.id,
    usage: { prompt_tokens: tokens, total_tokens: tokens },
  };
}
