import { createHash } from 'node:crypto';
import { countTokens } from './embeddings';
import { invalidRequest } from './errors';
import type { OpenAiState, ScriptedReply } from './state';

// Request bodies are OpenAI's loosely typed JSON, read field by field as the real API does.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = Record<string, any>;

interface ToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}
export interface AssistantTurn {
  content: string | null;
  toolCalls: ToolCall[];
  finishReason: string;
}

const ROLES = ['system', 'developer', 'user', 'assistant', 'tool'];

/** Text of a message whose content is a string or an array of parts. */
export function messageText(message: Json): string {
  if (typeof message.content === 'string') return message.content;
  if (Array.isArray(message.content)) return message.content.map((part: Json) => (typeof part?.text === 'string' ? part.text : '')).join('');
  return '';
}

/** The structural checks the real API makes before answering, including the tool-call pairing. */
export function checkMessages(messages: unknown): Json[] {
  if (!Array.isArray(messages) || messages.length === 0) throw invalidRequest("'messages' must be a non-empty array.", 'messages');
  let pendingCalls: string[] = [];
  messages.forEach((message: Json, i) => {
    if (!message || !ROLES.includes(message.role)) throw invalidRequest(`Invalid value for 'messages[${i}].role'.`, `messages[${i}].role`);
    if (message.role === 'tool') {
      if (!pendingCalls.includes(message.tool_call_id))
        throw invalidRequest("Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.", `messages.[${i}].role`);
      pendingCalls = pendingCalls.filter((id) => id !== message.tool_call_id);
      return;
    }
    if (pendingCalls.length > 0)
      throw invalidRequest(`An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${pendingCalls.join(', ')}`, 'messages');
    if (message.role === 'assistant' && Array.isArray(message.tool_calls)) pendingCalls = message.tool_calls.map((call: Json) => call.id);
  });
  if (pendingCalls.length > 0) throw invalidRequest(`The following tool_call_ids did not have response messages: ${pendingCalls.join(', ')}`, 'messages');
  return messages;
}

/** A JSON value shaped by a JSON Schema's required properties, filled from the user's text. */
export function sampleFromSchema(schema: Json | undefined, text: string): unknown {
  switch (schema?.type) {
    case 'object': {
      const properties: Json = schema.properties ?? {};
      const names: string[] = schema.required ?? Object.keys(properties);
      return Object.fromEntries(names.map((name) => [name, sampleFromSchema(properties[name], text)]));
    }
    case 'array':
      return [];
    case 'number':
    case 'integer':
      return 0;
    case 'boolean':
      return false;
    case 'null':
      return null;
    default:
      return schema?.enum ? schema.enum[0] : text;
  }
}

const callId = (seed: string, index: number) => `call_${createHash('sha256').update(`${seed}#${index}`).digest('hex').slice(0, 24)}`;

function fromScript(reply: ScriptedReply, seed: string): AssistantTurn {
  const toolCalls = (reply.toolCalls ?? []).map((call, i) => ({
    id: callId(seed, i),
    type: 'function' as const,
    function: { name: call.name, arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {}) },
  }));
  return {
    content: toolCalls.length > 0 ? (reply.content ?? null) : (reply.content ?? ''),
    toolCalls,
    finishReason: reply.finishReason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop'),
  };
}

/**
 * Picks the answer: the scripted queue first, then rules on the last user message, then a forced
 * tool_choice, then a deterministic default (a summary of tool results, or an echo).
 */
export function decideTurn(state: OpenAiState, body: Json, messages: Json[]): AssistantTurn {
  const seed = JSON.stringify(messages);
  const scripted = state.script.shift();
  if (scripted) return fromScript(scripted, seed);

  const last = messages[messages.length - 1];
  const lastUser = [...messages].reverse().find((m) => m.role === 'user');
  const userText = lastUser ? messageText(lastUser) : '';
  if (last.role === 'user') {
    const rule = state.rules.find((r) =>
      r.contains !== undefined ? userText.toLowerCase().includes(r.contains.toLowerCase()) : r.pattern !== undefined && new RegExp(r.pattern, 'i').test(userText),
    );
    if (rule) return fromScript(rule.reply, seed);

    const tools: Json[] = Array.isArray(body.tools) ? body.tools : [];
    const choice = body.tool_choice;
    const forced = typeof choice === 'object' ? tools.find((t) => t.function?.name === choice?.function?.name) : choice === 'required' ? tools[0] : undefined;
    if (forced) return fromScript({ toolCalls: [{ name: forced.function.name, arguments: sampleFromSchema(forced.function.parameters, userText) }] }, seed);
  }

  const toolResults = last.role === 'tool' ? messages.slice(messages.findLastIndex((m) => m.role === 'assistant') + 1).map(messageText) : [];
  const text = toolResults.length > 0 ? `Based on the tool results: ${toolResults.join(' | ')}` : `Echo: ${userText}`;
  const format = body.response_format?.type;
  if (format === 'json_object') return { content: JSON.stringify({ answer: text }), toolCalls: [], finishReason: 'stop' };
  if (format === 'json_schema') return { content: JSON.stringify(sampleFromSchema(body.response_format.json_schema?.schema, userText)), toolCalls: [], finishReason: 'stop' };
  return { content: text, toolCalls: [], finishReason: 'stop' };
}

/** Applies max_completion_tokens (or the deprecated max_tokens) the way the API reports it. */
export function limitLength(turn: AssistantTurn, body: Json): AssistantTurn {
  const limit = body.max_completion_tokens ?? body.max_tokens;
  if (typeof limit !== 'number' || turn.content === null || countTokens(turn.content) <= limit) return turn;
  return { ...turn, content: turn.content.slice(0, limit * 4), finishReason: 'length' };
}

export function usageOf(body: Json, messages: Json[], turn: AssistantTurn) {
  const promptTokens =
    3 +
    messages.reduce((sum, m) => sum + 4 + countTokens(messageText(m)) + (m.tool_calls ? countTokens(JSON.stringify(m.tool_calls)) : 0), 0) +
    (body.tools ? countTokens(JSON.stringify(body.tools)) : 0);
  const completionTokens = countTokens(turn.content ?? '') + (turn.toolCalls.length ? countTokens(JSON.stringify(turn.toolCalls)) : 0);
  return {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
    prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
  };
}

export function assistantMessage(turn: AssistantTurn) {
  return {
    role: 'assistant',
    content: turn.content,
    refusal: null,
    annotations: [],
    ...(turn.toolCalls.length > 0 ? { tool_calls: turn.toolCalls } : {}),
  };
}

/** SSE chunks of one turn: role, content pieces, tool calls, finish, then usage when asked. */
export function streamChunks(base: Json, turn: AssistantTurn, usage: Json, includeUsage: boolean): Json[] {
  const chunk = (delta: Json, finishReason: string | null = null) => ({
    ...base,
    object: 'chat.completion.chunk',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    ...(includeUsage ? { usage: null } : {}),
  });
  const chunks: Json[] = [chunk({ role: 'assistant', content: turn.content === null ? null : '', refusal: null })];
  for (const piece of turn.content?.match(/.{1,16}/gsu) ?? []) chunks.push(chunk({ content: piece }));
  if (turn.toolCalls.length > 0) chunks.push(chunk({ tool_calls: turn.toolCalls.map((call, index) => ({ index, ...call })) }));
  chunks.push(chunk({}, turn.finishReason));
  if (includeUsage) chunks.push({ ...base, object: 'chat.completion.chunk', choices: [], usage });
  return chunks;
}
