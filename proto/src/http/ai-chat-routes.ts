import { z } from 'zod';
import { defineRoute, successReply } from './contract';
import { idParam, wholeNumber } from './fields';
import { codeTypeSchema, parseResultSchema, parserMailSchema } from '../code-fetch';

/**
 * ai-chat's routes of issue 10: system prompts and AI providers (document 2 §7.1), the e-mail
 * parser's prompt and test (§7.2), and the parse that streaming-keys asks for a customer's fetch.
 * The chatbot's routes come with a later issue.
 */
const category = 'AI';

const FILL_ALL = 'Please fill in all fields.';
const required = (message: string) => z.string({ error: message }).trim().min(1, message);

export const systemPromptSchema = z.object({
  id: z.number().int(),
  promptId: z.string(),
  name: z.string(),
  content: z.string(),
  updatedAt: z.string(),
});
export type SystemPrompt = z.infer<typeof systemPromptSchema>;

/** Document 2 §3: the e-mail parser's prompt is read at email_parser (and email_parser_prompt). */
export const EMAIL_PARSER_PROMPT_ID = 'email_parser';
export const emailParserPromptSchema = z.object({ key: z.string(), name: z.string(), content: z.string(), updatedAt: z.string().nullable() });

export const aiProviderFamilies = ['openai', 'gemini', 'claude'] as const;
/** Models offered per family in the admin's form (any model name is accepted). */
export const aiProviderModels: Record<(typeof aiProviderFamilies)[number], string[]> = {
  openai: ['gpt-4o-mini', 'gpt-4o', 'gpt-4.1-mini', 'gpt-5-mini'],
  gemini: ['gemini-2.5-flash', 'gemini-2.5-pro'],
  claude: ['claude-sonnet-4-5', 'claude-haiku-4-5'],
};
/** The name of an environment variable holding the key, never the key itself. */
export const API_KEY_ENV_VAR_PATTERN = /^[A-Z][A-Z0-9_]*_API_KEY$/;

export const aiProviderSchema = z.object({
  id: z.number().int(),
  provider: z.enum(aiProviderFamilies),
  model: z.string(),
  apiKeyEnvVar: z.string(),
  /** 0 is tried first. */
  priority: z.number().int(),
  enabled: z.boolean(),
  /** Whether the named variable is set in ai-chat's environment (its value is never shown). */
  apiKeyPresent: z.boolean(),
});
export type AiProvider = z.infer<typeof aiProviderSchema>;

const providerFields = z.object({
  provider: z.enum(aiProviderFamilies, { error: 'Provider must be openai, gemini or claude' }),
  model: required('Model is required').pipe(z.string().max(100)),
  apiKeyEnvVar: required('API key variable is required').pipe(
    z.string().max(100).regex(API_KEY_ENV_VAR_PATTERN, 'The API key variable must be an environment variable name ending in _API_KEY, like OPENAI_API_KEY'),
  ),
  priority: wholeNumber('Priority must be a whole number').min(0, 'Priority must be 0 or more').max(1000),
  enabled: z.boolean(),
});
const providerBody = providerFields.extend({ priority: providerFields.shape.priority.default(0), enabled: providerFields.shape.enabled.default(true) });

const promptIdParams = z.object({ promptId: z.string().trim().min(1).max(100) });
const providerIdParams = z.object({ id: idParam });
const examplePrompt = { id: 1, promptId: 'price_answer', name: 'Price answers', content: 'Answer with the price list only.', updatedAt: '2026-11-23T08:00:00.000Z' };
const exampleProvider = { id: 1, provider: 'openai' as const, model: 'gpt-4o-mini', apiKeyEnvVar: 'OPENAI_API_KEY', priority: 0, enabled: true, apiKeyPresent: true };
const exampleParserPrompt = { key: 'email_parser', name: 'Email parser', content: 'Та streaming үйлчилгээний имэйлээс нэг удаагийн код гаргана…', updatedAt: '2026-11-23T08:00:00.000Z' };

export const listPrompts = defineRoute({
  owner: 'ai-chat', method: 'GET', path: '/api/admin/prompts', access: 'admin', category,
  reply: z.object({ success: z.boolean(), data: z.array(systemPromptSchema) }),
  summary: 'Every system prompt',
  example: { reply: { success: true, data: [examplePrompt] } },
});

export const createPrompt = defineRoute({
  owner: 'ai-chat', method: 'POST', path: '/api/admin/prompts', access: 'admin', category,
  body: z.object({ promptId: required(FILL_ALL).pipe(z.string().max(100)), name: required(FILL_ALL).pipe(z.string().max(200)), content: required(FILL_ALL).pipe(z.string().max(50_000)) }),
  reply: z.object({ success: z.boolean(), data: systemPromptSchema }),
  summary: 'Add a system prompt (409 when its promptId exists)',
  example: { body: { promptId: 'price_answer', name: 'Price answers', content: 'Answer with the price list only.' }, reply: { success: true, data: examplePrompt } },
});

export const updatePrompt = defineRoute({
  owner: 'ai-chat', method: 'PUT', path: '/api/admin/prompts/:promptId', access: 'admin', category,
  params: promptIdParams,
  body: z.object({ content: required('Content is required').pipe(z.string().max(50_000)) }),
  reply: z.object({ success: z.boolean(), data: systemPromptSchema }),
  summary: "Change a prompt's content",
  example: { params: { promptId: 'price_answer' }, body: { content: 'Answer briefly.' }, reply: { success: true, data: { ...examplePrompt, content: 'Answer briefly.' } } },
});

export const deletePrompt = defineRoute({
  owner: 'ai-chat', method: 'DELETE', path: '/api/admin/prompts/:promptId', access: 'admin', category,
  params: promptIdParams,
  reply: successReply,
  summary: 'Delete a prompt',
  example: { params: { promptId: 'price_answer' }, reply: { success: true } },
});

export const getEmailParserPrompt = defineRoute({
  owner: 'ai-chat', method: 'GET', path: '/api/system-prompts/email_parser', access: 'admin', category,
  reply: emailParserPromptSchema,
  summary: "The e-mail parser's prompt; 404 while none is saved (the parser then uses the default)",
  example: { reply: exampleParserPrompt },
});

export const getDefaultEmailParserPrompt = defineRoute({
  owner: 'ai-chat', method: 'GET', path: '/api/system-prompts/email_parser/default', access: 'admin', category,
  reply: emailParserPromptSchema,
  summary: "The e-mail parser's default prompt (Mongolian)",
  example: { reply: { ...exampleParserPrompt, updatedAt: null } },
});

const parserPromptBody = z.object({ name: z.string().trim().max(200).optional(), content: required('Content is required').pipe(z.string().max(50_000)) });

export const saveEmailParserPrompt = defineRoute({
  owner: 'ai-chat', method: 'PUT', path: '/api/system-prompts/email_parser', access: 'admin', category,
  body: parserPromptBody,
  reply: z.object({ success: z.boolean(), data: emailParserPromptSchema }),
  summary: "Save the e-mail parser's prompt (made when none exists)",
  example: { body: { content: exampleParserPrompt.content }, reply: { success: true, data: exampleParserPrompt } },
});

export const getEmailParserPromptAlias = defineRoute({
  owner: 'ai-chat', method: 'GET', path: '/api/system-prompts/email_parser_prompt', access: 'admin', category,
  reply: emailParserPromptSchema,
  summary: 'The same prompt under the key the parser page reads; 404 while none is saved',
  example: { reply: exampleParserPrompt },
});

export const saveEmailParserPromptAlias = defineRoute({
  owner: 'ai-chat', method: 'PUT', path: '/api/system-prompts/email_parser_prompt', access: 'admin', category,
  body: parserPromptBody,
  reply: z.object({ success: z.boolean(), data: emailParserPromptSchema }),
  summary: "Save the e-mail parser's prompt with its name (the parser page's Save System Prompt)",
  example: { body: { name: 'Email parser', content: exampleParserPrompt.content }, reply: { success: true, data: exampleParserPrompt } },
});

export const listAiProviders = defineRoute({
  owner: 'ai-chat', method: 'GET', path: '/api/admin/ai-providers', access: 'admin', category,
  reply: z.object({ success: z.boolean(), data: z.array(aiProviderSchema) }),
  summary: 'AI providers in the order they are tried (priority 0 first)',
  example: { reply: { success: true, data: [exampleProvider] } },
});

export const createAiProvider = defineRoute({
  owner: 'ai-chat', method: 'POST', path: '/api/admin/ai-providers', access: 'admin', category,
  body: providerBody,
  reply: z.object({ success: z.boolean(), data: aiProviderSchema }),
  summary: 'Add an AI provider',
  example: { body: { provider: 'openai', model: 'gpt-4o-mini', apiKeyEnvVar: 'OPENAI_API_KEY', priority: 0, enabled: true }, reply: { success: true, data: exampleProvider } },
});

export const updateAiProvider = defineRoute({
  owner: 'ai-chat', method: 'PUT', path: '/api/admin/ai-providers/:id', access: 'admin', category,
  params: providerIdParams,
  // Without the create defaults: a field left out stays as it is (zod's partial() would still apply them).
  body: providerFields.partial(),
  reply: z.object({ success: z.boolean(), data: aiProviderSchema }),
  summary: 'Change an AI provider (the list switch sends only enabled)',
  example: { params: { id: 1 }, body: { enabled: false }, reply: { success: true, data: { ...exampleProvider, enabled: false } } },
});

export const deleteAiProvider = defineRoute({
  owner: 'ai-chat', method: 'DELETE', path: '/api/admin/ai-providers/:id', access: 'admin', category,
  params: providerIdParams,
  reply: successReply,
  summary: 'Delete an AI provider',
  example: { params: { id: 1 }, reply: { success: true } },
});

export const MISSING_PARSER_TEST_INPUT = 'Please provide both email text and code type';

export const testEmailParser = defineRoute({
  owner: 'ai-chat', method: 'POST', path: '/api/ai-parser/test', access: 'admin', category,
  body: z.object({
    emailText: z.string({ error: MISSING_PARSER_TEST_INPUT }).trim().min(1, MISSING_PARSER_TEST_INPUT).max(200_000),
    codeType: z.string({ error: MISSING_PARSER_TEST_INPUT }).trim().min(1, MISSING_PARSER_TEST_INPUT).pipe(codeTypeSchema),
  }),
  reply: z.object({ success: z.boolean(), data: parseResultSchema }),
  summary: 'Run the parser (expressions first, then the AI with the saved prompt) on a pasted e-mail',
  example: {
    body: { emailText: 'Enter this code to sign in\n4821', codeType: 'NFX_SIGN_IN_CODE' },
    reply: { success: true, data: { found: true, reason: 'Sign-in code found', message_mn: 'Нэвтрэх код олдлоо', code: '4821', links: [], buttons: [], outcome: 'found', approvalLinks: [], denialLinks: [], blockedType: null, source: 'expressions' } },
  },
});

export const parseMails = defineRoute({
  owner: 'ai-chat', method: 'POST', path: '/internal/email-parser/parse', access: 'internal', callers: ['streaming-keys'], category,
  body: z.object({ codeType: codeTypeSchema, mails: z.array(parserMailSchema).max(50) }),
  reply: z.object({
    result: parseResultSchema,
    /** False when the answer depended on an AI that did not answer: the caller must not remember it. */
    cacheable: z.boolean(),
  }),
  summary: 'Parse recent mails (newest first) for one code type: expressions first, the AI only when they find nothing',
  example: {
    body: { codeType: 'NFX_SIGN_IN_CODE', mails: [{ uid: 812, from: 'info@account.netflix.com', subject: 'Netflix: Your sign-in code', date: '2026-11-23T08:00:00.000Z', text: 'Enter this code to sign in\n4821', html: '' }] },
    reply: {
      result: { found: true, reason: 'Sign-in code found', message_mn: 'Нэвтрэх код олдлоо', code: '4821', links: [], buttons: [], outcome: 'found', approvalLinks: [], denialLinks: [], blockedType: null, source: 'expressions' },
      cacheable: true,
    },
  },
});

export const aiChatRoutes = [
  listPrompts, createPrompt, updatePrompt, deletePrompt,
  getEmailParserPrompt, getDefaultEmailParserPrompt, saveEmailParserPrompt, getEmailParserPromptAlias, saveEmailParserPromptAlias,
  listAiProviders, createAiProvider, updateAiProvider, deleteAiProvider,
  testEmailParser, parseMails,
];
