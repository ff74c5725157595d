import { EMAIL_PARSER_PROMPT_ID, type SystemPrompt as SystemPromptView } from '@bo/proto';
import type { SystemPrompt } from '../generated/prisma/client';
import { isUniqueViolation, type AiChatDb } from './db';

/** The name the e-mail parser's prompt gets when it is first saved without one. */
export const EMAIL_PARSER_PROMPT_NAME = 'Email parser';

export const promptView = (row: SystemPrompt): SystemPromptView => ({
  id: row.id,
  promptId: row.promptId,
  name: row.name,
  content: row.content,
  updatedAt: row.updatedAt.toISOString(),
});

/** The system prompts; the only place that touches system_prompts. */
export const promptsStore = {
  list(db: AiChatDb) {
    return db.systemPrompt.findMany({ orderBy: { promptId: 'asc' } });
  },

  /** How many prompts there are (the /ai-admin Status card). */
  count(db: AiChatDb) {
    return db.systemPrompt.count();
  },

  find(db: AiChatDb, promptId: string) {
    return db.systemPrompt.findUnique({ where: { promptId } });
  },

  /** Null when a prompt with this promptId exists. */
  async create(db: AiChatDb, data: { promptId: string; name: string; content: string }) {
    try {
      return await db.systemPrompt.create({ data });
    } catch (error) {
      if (isUniqueViolation(error)) return null;
      throw error;
    }
  },

  /** Null when there is no such prompt. */
  async updateContent(db: AiChatDb, promptId: string, content: string) {
    const { count } = await db.systemPrompt.updateMany({ where: { promptId }, data: { content } });
    return count === 1 ? db.systemPrompt.findUnique({ where: { promptId } }) : null;
  },

  async delete(db: AiChatDb, promptId: string): Promise<boolean> {
    return (await db.systemPrompt.deleteMany({ where: { promptId } })).count === 1;
  },

  /** Makes the e-mail parser's prompt, or changes it (its name only when one is given). */
  saveEmailParserPrompt(db: AiChatDb, { name, content }: { name?: string; content: string }) {
    return db.systemPrompt.upsert({
      where: { promptId: EMAIL_PARSER_PROMPT_ID },
      create: { promptId: EMAIL_PARSER_PROMPT_ID, name: name || EMAIL_PARSER_PROMPT_NAME, content },
      update: { content, ...(name ? { name } : {}) },
    });
  },
};
