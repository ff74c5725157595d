import { listen } from '@bo/sim-kit';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildOpenAiSimulator } from '../src/app';

const sim = buildOpenAiSimulator();
const state = sim.state;
const KEY = 'sk-sim-test-key';
let root = '';
let client: OpenAI;

const control = async (path: string, body: unknown) => {
  const response = await fetch(`${root}/__sim/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(response.ok).toBe(true);
  return response.json();
};
const dot = (a: number[], b: number[]) => a.reduce((sum, x, i) => sum + x * b[i], 0);

beforeAll(async () => {
  root = await listen(sim.app);
  client = new OpenAI({ apiKey: KEY, baseURL: `${root}/v1`, maxRetries: 0 });
});
afterAll(() => sim.app.close());
beforeEach(() => control('reset', {}));

describe('chat completions', () => {
  it('answers deterministically with the documented shape and usage', async () => {
    const ask = () => client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'system', content: 'Be brief' }, { role: 'user', content: 'Hello there' }] });
    const first = await ask();
    expect(first).toMatchObject({ object: 'chat.completion', model: 'gpt-4o-mini-2024-07-18', choices: [{ index: 0, finish_reason: 'stop', logprobs: null, message: { role: 'assistant', content: 'Echo: Hello there', refusal: null } }] });
    expect(first.id).toMatch(/^chatcmpl-/);
    expect(first.usage!.total_tokens).toBe(first.usage!.prompt_tokens + first.usage!.completion_tokens);
    expect(first.usage!.prompt_tokens).toBeGreaterThan(0);
    expect((await ask()).choices[0].message.content).toBe(first.choices[0].message.content);
    expect(state.chatRequests[0].messages).toHaveLength(2);
  });

  it('serves the scripted queue first, then rules on the last user message', async () => {
    await control('script', [{ content: 'scripted one' }]);
    await control('rules', { contains: 'netflix', reply: { content: 'Netflix costs 15000₮' } });
    const say = async (text: string) => (await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: text }] })).choices[0].message.content;
    expect(await say('Netflix price?')).toBe('scripted one');
    expect(await say('Netflix price?')).toBe('Netflix costs 15000₮');
    expect(await say('Spotify?')).toBe('Echo: Spotify?');
  });

  it('runs a tool-call round trip', async () => {
    await control('rules', { contains: 'price', reply: { toolCalls: [{ name: 'get_price', arguments: { service: 'netflix' } }] } });
    const tools: OpenAI.Chat.Completions.ChatCompletionTool[] = [
      { type: 'function', function: { name: 'get_price', parameters: { type: 'object', properties: { service: { type: 'string' } }, required: ['service'] } } },
    ];
    const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [{ role: 'user', content: 'What is the Netflix price?' }];
    const first = await client.chat.completions.create({ model: 'gpt-4o-mini', messages, tools });
    const choice = first.choices[0];
    expect(choice.finish_reason).toBe('tool_calls');
    expect(choice.message.content).toBeNull();
    const call = choice.message.tool_calls![0];
    expect(call.type).toBe('function');
    if (call.type !== 'function') throw new Error('expected a function call');
    expect(JSON.parse(call.function.arguments)).toEqual({ service: 'netflix' });

    messages.push(choice.message, { role: 'tool', tool_call_id: call.id, content: '15000 MNT' });
    const second = await client.chat.completions.create({ model: 'gpt-4o-mini', messages, tools });
    expect(second.choices[0]).toMatchObject({ finish_reason: 'stop', message: { content: 'Based on the tool results: 15000 MNT' } });

    const unanswered = client.chat.completions.create({ model: 'gpt-4o-mini', messages: [...messages.slice(0, 2), { role: 'user', content: 'hi' }] });
    await expect(unanswered).rejects.toBeInstanceOf(OpenAI.BadRequestError);
  });

  it('forces a tool call when tool_choice names a function, with arguments from its schema', async () => {
    const completion = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'bat@example.com' }],
      tools: [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object', properties: { email: { type: 'string' }, limit: { type: 'integer' } }, required: ['email'] } } }],
      tool_choice: { type: 'function', function: { name: 'lookup' } },
    });
    const call = completion.choices[0].message.tool_calls![0];
    expect(call.type === 'function' && JSON.parse(call.function.arguments)).toEqual({ email: 'bat@example.com' });
  });

  it('streams SSE chunks that the SDK assembles into the same text', async () => {
    await control('script', { content: 'A streamed answer that spans several chunks.' });
    const stream = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], stream: true, stream_options: { include_usage: true } });
    let text = '';
    let usage: unknown = null;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toBe('A streamed answer that spans several chunks.');
    expect(usage).toMatchObject({ completion_tokens: expect.any(Number) });
  });
});

describe('embeddings', () => {
  it('gives 1536-dim unit vectors in index order, and base64 decodes to exactly the float vector', async () => {
    const inputs = ['Netflix price', 'Spotify family plan', 'Netflix price'];
    const asFloat = await client.embeddings.create({ model: 'text-embedding-3-small', input: inputs, encoding_format: 'float' });
    expect(asFloat.data.map((d) => d.index)).toEqual([0, 1, 2]);
    const vectors = asFloat.data.map((d) => d.embedding);
    expect(vectors[0]).toHaveLength(1536);
    expect(Math.abs(dot(vectors[0], vectors[0]) - 1)).toBeLessThan(1e-5);
    expect(vectors[2]).toEqual(vectors[0]);
    expect(vectors[1]).not.toEqual(vectors[0]);
    expect(asFloat.usage.total_tokens).toBeGreaterThan(0);

    // no encoding_format: the SDK asks for base64 and decodes it itself
    const asBase64 = await client.embeddings.create({ model: 'text-embedding-3-small', input: inputs });
    expect(asBase64.data.map((d) => d.embedding)).toEqual(vectors);
    const raw = (await (await fetch(`${root}/v1/embeddings`, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'text-embedding-3-small', input: 'x', encoding_format: 'base64' }) })).json()) as { data: { embedding: unknown }[] };
    expect(typeof raw.data[0].embedding).toBe('string');
  });

  it('honours dimensions and refuses it for ada-002', async () => {
    const short = await client.embeddings.create({ model: 'text-embedding-3-small', input: 'hello', dimensions: 256, encoding_format: 'float' });
    expect(short.data[0].embedding).toHaveLength(256);
    await expect(client.embeddings.create({ model: 'text-embedding-ada-002', input: 'hello', dimensions: 256 })).rejects.toBeInstanceOf(OpenAI.BadRequestError);
  });

  it('ranks a Netflix pricing text above unrelated ones for "Netflix price"', async () => {
    const documents = ['Netflix Premium subscription price is 15000 MNT per month', 'How to reset your Steam account password', 'Spotify family plan supports six accounts'];
    const { data } = await client.embeddings.create({ model: 'text-embedding-3-small', input: ['Netflix price', ...documents] });
    const [query, ...docs] = data.map((d) => d.embedding);
    const scores = docs.map((doc) => dot(query, doc));
    expect(scores[0]).toBeGreaterThan(scores[1] + 0.2);
    expect(scores[0]).toBeGreaterThan(scores[2] + 0.2);
  });
});

describe('errors, retries and personas', () => {
  it('answers 401 invalid_api_key and 404 model_not_found in OpenAI shape', async () => {
    const wrong = new OpenAI({ apiKey: 'sk-wrong-key-123456', baseURL: `${root}/v1`, maxRetries: 0 });
    const unauthorized = await wrong.models.list().catch((e) => e);
    expect(unauthorized).toBeInstanceOf(OpenAI.AuthenticationError);
    expect(unauthorized).toMatchObject({ status: 401, code: 'invalid_api_key', type: 'invalid_request_error' });
    const missing = await client.chat.completions.create({ model: 'gpt-9', messages: [{ role: 'user', content: 'x' }] }).catch((e) => e);
    expect(missing).toBeInstanceOf(OpenAI.NotFoundError);
    expect(missing.code).toBe('model_not_found');
    expect((await client.models.retrieve('gpt-4o-mini')).id).toBe('gpt-4o-mini');
    expect((await client.models.list()).data.map((m) => m.id)).toContain('text-embedding-3-small');
  });

  it('429 with retry-after-ms is retried by the SDK; attempts show the retry count', async () => {
    await control('errors', { kind: 'rate_limit', times: 2, retryAfterMs: '20', pathPrefix: '/v1/chat' });
    const retrying = new OpenAI({ apiKey: KEY, baseURL: `${root}/v1`, maxRetries: 2 });
    const completion = await retrying.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });
    expect(completion.choices[0].message.content).toBe('Echo: hi');
    expect(state.attempts.map((a) => a.retryCount).reverse()).toEqual([0, 1, 2]);
  });

  it('x-should-retry:false stops the retries; insufficient_quota is a RateLimitError', async () => {
    await control('errors', { kind: 'insufficient_quota', shouldRetry: false });
    const retrying = new OpenAI({ apiKey: KEY, baseURL: `${root}/v1`, maxRetries: 2 });
    const error = await retrying.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }).catch((e) => e);
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    expect(error).toMatchObject({ status: 429, code: 'insufficient_quota', type: 'insufficient_quota' });
    expect(state.attempts).toHaveLength(1);
  });

  it('500 becomes InternalServerError; a slow answer beats a short client timeout; a drop is a connection error', async () => {
    await control('errors', { kind: 'server_error', times: 1 });
    expect(await client.models.list().catch((e) => e)).toBeInstanceOf(OpenAI.InternalServerError);
    // Both tries' answers are held until after the client gave up on each: it did not wait for them.
    const { faults: [held] } = (await control('faults', { kind: 'hold', times: 2 })) as { faults: { id: number }[] };
    const impatient = new OpenAI({ apiKey: KEY, baseURL: `${root}/v1`, maxRetries: 1, timeout: 200 });
    expect(await impatient.models.list().catch((e) => e)).toBeInstanceOf(OpenAI.APIConnectionTimeoutError);
    await expect.poll(() => sim.faults.held().map((request) => [request.url, request.clientGone])).toEqual([['/v1/models', true], ['/v1/models', true]]);
    expect(sim.faults.release(held.id)).toBe(2);
    await control('faults', { kind: 'drop', times: 1 });
    expect(await client.models.list().catch((e) => e)).toBeInstanceOf(OpenAI.APIConnectionError);
  });

  it('serves a Gemini-style prefix and an Anthropic-style persona without embeddings', async () => {
    await control('options', { persona: 'gemini' });
    const gemini = new OpenAI({ apiKey: KEY, baseURL: `${root}/v1beta/openai/`, maxRetries: 0 });
    const embedded = await gemini.embeddings.create({ model: 'gemini-embedding-001', input: 'hello' });
    expect(embedded.data[0].embedding).toHaveLength(3072);
    expect((await gemini.chat.completions.create({ model: 'gemini-2.5-flash', messages: [{ role: 'user', content: 'hi' }] })).model).toBe('gemini-2.5-flash');
    expect(await client.models.list().catch((e) => e)).toBeInstanceOf(OpenAI.NotFoundError);

    await control('options', { persona: 'anthropic' });
    expect((await client.chat.completions.create({ model: 'claude-haiku-4-5', messages: [{ role: 'user', content: 'hi' }] })).choices[0].message.content).toBe('Echo: hi');
    expect(await client.embeddings.create({ model: 'text-embedding-3-small', input: 'x' }).catch((e) => e)).toBeInstanceOf(OpenAI.NotFoundError);
  });

  it('shows persona, scripted replies and attempts on the control page', async () => {
    await control('script', { content: 'queued for the page' });
    await client.models.list();
    const page = await (await fetch(`${root}/__sim/`)).text();
    expect(page).toContain('Persona openai');
    expect(page).toContain('queued for the page');
    expect(page).toContain('/v1/models');
  });
});
