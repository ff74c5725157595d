import type { Prisma } from '../generated/prisma/client';
import { TABLES, type AiChatDb } from './db';

/** An entry's words as PostgreSQL's `simple` text search configuration makes them: [lexeme, occurrences]. */
const WORDS_OF = (text: string) =>
  `(SELECT coalesce(json_agg(json_build_array(lexeme, coalesce(array_length(positions, 1), 1))), '[]'::json) FROM unnest(to_tsvector('simple', ${text})))`;

export interface KnowledgeFields {
  category: string;
  title: string;
  content: string;
  metadata?: Record<string, unknown>;
}

/** An entry as the admin's list shows it (never its vector). */
const listed = { id: true, category: true, title: true, content: true, metadata: true, createdAt: true, updatedAt: true, embeddingModel: true, embeddedAt: true } as const;
export type ListedKnowledgeRow = Prisma.KnowledgeEntryGetPayload<{ select: typeof listed }>;

/** An entry as the search's memory holds it: its fields, its vector's bytes and its words, head (category and title) and body apart. */
export interface IndexRow {
  id: number;
  category: string;
  title: string;
  content: string;
  metadata: unknown;
  created_at: Date;
  updated_at: Date;
  embedding: Uint8Array | null;
  embedding_model: string | null;
  head_words: [string, number][];
  body_words: [string, number][];
}

/** What changes whenever any entry is added, changed (updated_at moves) or removed. */
export interface KnowledgeFingerprint {
  count: number;
  latest: Date | null;
  /** The sum of every updated_at in ms, as text (past 2^53). */
  total: string;
}

/** The text an entry's embedding is made of. */
export type EmbeddedText = Pick<IndexRow, 'id' | 'category' | 'title' | 'content'>;

/** The knowledge base; the only place that touches knowledge_base. */
export const knowledgeStore = {
  list(db: AiChatDb, category?: string): Promise<ListedKnowledgeRow[]> {
    return db.knowledgeEntry.findMany({ where: category ? { category } : {}, select: listed, orderBy: [{ category: 'asc' }, { title: 'asc' }, { id: 'asc' }] });
  },

  async categories(db: AiChatDb): Promise<{ category: string; count: number }[]> {
    const groups = await db.knowledgeEntry.groupBy({ by: ['category'], _count: { _all: true }, orderBy: { category: 'asc' } });
    return groups.map((group) => ({ category: group.category, count: group._count._all }));
  },

  create(db: AiChatDb, fields: KnowledgeFields): Promise<ListedKnowledgeRow> {
    return db.knowledgeEntry.create({ data: { ...fields, metadata: (fields.metadata ?? {}) as Prisma.InputJsonValue }, select: listed });
  },

  /**
   * Replaces an entry's fields (metadata only when given). A changed category, title or content
   * drops the embedding, which described the old text. Null when there is no such entry.
   */
  async update(db: AiChatDb, id: number, fields: KnowledgeFields): Promise<{ row: ListedKnowledgeRow; textChanged: boolean } | null> {
    const before = await db.knowledgeEntry.findUnique({ where: { id }, select: { category: true, title: true, content: true } });
    if (!before) return null;
    const textChanged = before.category !== fields.category || before.title !== fields.title || before.content !== fields.content;
    const { count } = await db.knowledgeEntry.updateMany({
      where: { id },
      data: {
        category: fields.category,
        title: fields.title,
        content: fields.content,
        ...(fields.metadata && { metadata: fields.metadata as Prisma.InputJsonValue }),
        ...(textChanged && { embedding: null, embeddingModel: null, embeddedAt: null }),
      },
    });
    if (count !== 1) return null;
    const row = await db.knowledgeEntry.findUnique({ where: { id }, select: listed });
    return row ? { row, textChanged } : null;
  },

  async delete(db: AiChatDb, id: number): Promise<boolean> {
    return (await db.knowledgeEntry.deleteMany({ where: { id } })).count === 1;
  },

  /** The entry's text and the model of the embedding it holds (null when it holds none); null when there is no such entry. */
  findForEmbedding(db: AiChatDb, id: number) {
    return db.knowledgeEntry.findUnique({ where: { id }, select: { id: true, category: true, title: true, content: true, embeddingModel: true } });
  },

  /**
   * Keeps an embedding, only if the entry still holds the text it was made of (an edit since has
   * dropped it, and its own run makes the new one). True when kept.
   */
  async saveEmbedding(db: AiChatDb, text: EmbeddedText, bytes: Uint8Array<ArrayBuffer>, model: string): Promise<boolean> {
    const { count } = await db.knowledgeEntry.updateMany({
      where: { id: text.id, category: text.category, title: text.title, content: text.content },
      data: { embedding: bytes, embeddingModel: model, embeddedAt: new Date() },
    });
    return count === 1;
  },

  async fingerprint(db: AiChatDb): Promise<KnowledgeFingerprint> {
    const [row] = await db.$queryRawUnsafe<KnowledgeFingerprint[]>(
      `SELECT count(*)::int AS count, max(updated_at) AS latest, coalesce(sum((extract(epoch FROM updated_at) * 1000)::bigint), 0)::text AS total FROM ${TABLES.knowledge}`,
    );
    return row;
  },

  /** Every entry's id and when it last changed; only those changed at or after `since` when given. */
  versions(db: AiChatDb, since?: Date): Promise<{ id: number; updated_at: Date }[]> {
    return since ? db.$queryRawUnsafe(`SELECT id, updated_at FROM ${TABLES.knowledge} WHERE updated_at >= $1`, since) : db.$queryRawUnsafe(`SELECT id, updated_at FROM ${TABLES.knowledge}`);
  },

  /** The entries as the search holds them, with their words as PostgreSQL's full text search makes them. */
  indexRows(db: AiChatDb, ids: number[]): Promise<IndexRow[]> {
    return db.$queryRawUnsafe(
      `SELECT id, category, title, content, metadata, created_at, updated_at, embedding, embedding_model,
              ${WORDS_OF(`category || ' ' || title`)} AS head_words, ${WORDS_OF('content')} AS body_words
         FROM ${TABLES.knowledge} WHERE id = ANY($1::int[])`,
      ids,
    );
  },
};
