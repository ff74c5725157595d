import type { FastifyInstance } from 'fastify';
import { conflict, notFound, serveRoute } from '@bo/platform';
import {
  createPrompt,
  deletePrompt,
  EMAIL_PARSER_PROMPT_ID,
  getDefaultEmailParserPrompt,
  getEmailParserPrompt,
  getEmailParserPromptAlias,
  listPrompts,
  saveEmailParserPrompt,
  saveEmailParserPromptAlias,
  updatePrompt,
} from '@bo/proto';
import { DEFAULT_EMAIL_PARSER_PROMPT } from '../domain/parser-prompt';
import type { SystemPrompt } from '../generated/prisma/client';
import { EMAIL_PARSER_PROMPT_NAME, promptsStore, promptView } from '../store/prompts-store';
import type { AiChatRouteDeps } from './deps';

const parserPromptView = (row: SystemPrompt) => ({ key: row.promptId, name: row.name, content: row.content, updatedAt: row.updatedAt.toISOString() });

/** System prompts (document 2 §7.1) and the e-mail parser's prompt, also under its alias email_parser_prompt (§7.2). */
export function registerPromptRoutes(app: FastifyInstance, { prisma }: AiChatRouteDeps): void {
  serveRoute(app, listPrompts, async () => ({ success: true, data: (await promptsStore.list(prisma)).map(promptView) }));

  serveRoute(app, createPrompt, async ({ body }) => {
    const row = await promptsStore.create(prisma, body);
    if (!row) throw conflict('A prompt with this ID already exists');
    return { success: true, data: promptView(row) };
  });

  serveRoute(app, updatePrompt, async ({ params, body }) => {
    const row = await promptsStore.updateContent(prisma, params.promptId, body.content);
    if (!row) throw notFound('Prompt not found');
    return { success: true, data: promptView(row) };
  });

  serveRoute(app, deletePrompt, async ({ params }) => {
    if (!(await promptsStore.delete(prisma, params.promptId))) throw notFound('Prompt not found');
    return { success: true };
  });

  const readParserPrompt = async () => {
    const row = await promptsStore.find(prisma, EMAIL_PARSER_PROMPT_ID);
    // The page's create mode: the parser meanwhile uses the default.
    if (!row) throw notFound('No email parser prompt saved');
    return parserPromptView(row);
  };
  serveRoute(app, getEmailParserPrompt, readParserPrompt);
  serveRoute(app, getEmailParserPromptAlias, readParserPrompt);

  serveRoute(app, getDefaultEmailParserPrompt, async () => ({ key: EMAIL_PARSER_PROMPT_ID, name: EMAIL_PARSER_PROMPT_NAME, content: DEFAULT_EMAIL_PARSER_PROMPT, updatedAt: null }));

  const saveParserPrompt = async ({ body }: { body: { name?: string; content: string } }) => ({ success: true, data: parserPromptView(await promptsStore.saveEmailParserPrompt(prisma, body)) });
  serveRoute(app, saveEmailParserPrompt, saveParserPrompt);
  serveRoute(app, saveEmailParserPromptAlias, saveParserPrompt);
}
