import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '@bo/platform';
import { runKind, type Runs } from '@bo/platform/runs';
import type { KnowledgeEntry as KnowledgeEntryView, KnowledgeSearchHit, KnowledgeSearchMode } from '@bo/proto';
import { EMBEDDING_DIMENSIONS, EMBEDDING_MODELS, type AiProviders, type ProviderTarget } from '../clients/ai-providers';
import { KeywordIndex, queryWords, reciprocalRankFusion, unitVector, vectorFromBytes, vectorToBytes } from '../domain/knowledge-ranking';
import { VectorScan } from '../domain/vector-scan';
import type { PrismaClient } from '../generated/prisma/client';
import { knowledgeStore, type IndexRow, type KnowledgeFields, type KnowledgeFingerprint, type ListedKnowledgeRow } from '../store/knowledge-store';
import { providersStore } from '../store/providers-store';

/** How often a search asks the table whether anything changed (another replica's edit is seen within this). */
export const KNOWLEDGE_REFRESH_MS = 2_000;
/**
 * A search answers from memory while the last look is younger than this, starting the next look
 * beside it when that one is older than KNOWLEDGE_REFRESH_MS; past this (searches come seldom) it
 * waits for a look. So busy searching never waits for the table, and nothing answers from a look
 * older than this.
 */
export const KNOWLEDGE_STALE_MS = 5_000;
/** Each ranking's depth fed to the fusion. */
const CANDIDATES = 50;
/**
 * Below this cosine similarity an entry is not counted as found by meaning: unrelated texts score
 * about 0 to 0.15 with text-embedding-3-small, so a question with no fitting entry finds none.
 */
export const MIN_MEANING_SIMILARITY = 0.2;
/** A category or title word counts this many times a content word (BM25 over one field, weighted). */
const HEAD_WEIGHT = 2;
/** How long a search waits for its query's embedding before it answers by words only. */
export const QUERY_EMBEDDING_TIMEOUT_MS = 2_000;
/** Waits between an embed run's tries within the run (three tries); after them the run fails, and Retry (Background work) tries again. */
const EMBED_RETRY_DELAYS_MS = [1_000, 4_000];
/** Rows read from the table at once when the memory is filled or brought up to date. */
const LOAD_BATCH = 500;

const embeddingModels = new Set(Object.values(EMBEDDING_MODELS));

/** The search's plain-words reasons for using words only. */
export const knowledgeSearchTexts = {
  noProvider: 'Keyword search only: no enabled AI provider makes embeddings (OpenAI providers do, with text-embedding-3-small; Gemini and Claude are not asked).',
  noKey: (variables: string[]) => `Keyword search only: the API key variable of the AI providers that make embeddings is not set (${variables.join(', ')}).`,
  noneEmbedded: (count: number) =>
    count === 0 ? 'Keyword search only: the knowledge base has no entries yet.' : `Keyword search only: ${count === 1 ? 'its one entry is' : `none of its ${count} entries is`} embedded yet.`,
  queryNotEmbedded: (why: string) => `Keyword search only: the AI provider did not make the query's embedding (${why}).`,
  queryTooSlow: `Keyword search only: the AI provider did not make the query's embedding within ${QUERY_EMBEDDING_TIMEOUT_MS / 1000} s.`,
  someNotEmbedded: (missing: number, count: number) => `${missing} of ${count} entries ${missing === 1 ? 'is' : 'are'} not embedded yet: ${missing === 1 ? 'it is' : 'they are'} found by ${missing === 1 ? 'its' : 'their'} words only.`,
} as const;

export interface KnowledgeSearchResult {
  /** Best first (the two rankings fused). */
  entries: KnowledgeSearchHit[];
  mode: KnowledgeSearchMode;
  /** Why meaning was not used, or for which entries not; null when every entry was searched both ways. */
  reason: string | null;
}

/** What an embed run did (its result in Background work). */
export interface EmbedOutcome {
  embedded: boolean;
  /** Why nothing was kept, when nothing was. */
  why?: string;
  model?: string;
  dimensions?: number;
  providerId?: number;
  tries: number;
}

export interface KnowledgeBaseDeps {
  prisma: PrismaClient;
  ai: Pick<AiProviders, 'embed' | 'embeddingTargets' | 'keyPresent'>;
  runs: Runs;
  logger: Logger;
  /** The providers to ask, in order: the enabled rows of /ai-admin unless given (the bench gives its own). */
  providers?: () => Promise<ProviderTarget[]>;
  /** Waits between an embed run's tries (tests shorten them). */
  embedRetryDelaysMs?: number[];
}

/** One entry as this process holds it for search (its words are in the keyword index, its vector in the scan). */
interface HeldEntry {
  view: Omit<KnowledgeEntryView, 'embedded'>;
  updatedAtMs: number;
  /** The model of its vector (of its current text, by a model we ask); null until it has one. */
  model: string | null;
}

const isoOf = (date: Date) => date.toISOString();
/** The text an entry's embedding is made of. */
const embeddingText = (entry: { category: string; title: string; content: string }) => `${entry.category}: ${entry.title}\n\n${entry.content}`;

const entryView = (row: ListedKnowledgeRow): KnowledgeEntryView => ({
  id: row.id,
  category: row.category,
  title: row.title,
  content: row.content,
  metadata: (row.metadata ?? {}) as Record<string, unknown>,
  createdAt: isoOf(row.createdAt),
  updatedAt: isoOf(row.updatedAt),
  embedded: row.embeddedAt !== null && row.embeddingModel !== null && embeddingModels.has(row.embeddingModel),
});

/**
 * The knowledge base (issue 21): entries the admin keeps on /ai-admin, each embedded by a
 * `knowledge-embed` run when its text is saved, and the search the chat gives its AI entries by.
 *
 * Search works in memory: every entry's words (PostgreSQL's `to_tsvector('simple', …)`, made
 * when the row is read; a query's are split the same way here, see queryWords) in a BM25 index,
 * and its vector (float32, unit length) for an exact cosine scan (VectorScan), fused by
 * reciprocal rank fusion. Ranking by PostgreSQL's full text
 * search in each query was measured too slow: ts_rank must make every matching row's tsvector
 * again (no column may hold it: the table is Prisma's), 350–980 ms when a common word matches
 * half of 10,000 entries. The memory is filled at first use and, before a search and at most
 * every KNOWLEDGE_REFRESH_MS, the table is asked whether anything changed (count, latest and sum
 * of updated_at); only the changed rows are read again, so another replica's edit is seen
 * within that time. A search waits for that look only when the last one is older than
 * KNOWLEDGE_STALE_MS (else it runs beside the search). Writes through this process are seen at
 * its next search.
 */
export class KnowledgeBase {
  private readonly entries = new Map<number, HeldEntry>();
  private readonly keywords = new KeywordIndex();
  private readonly vectors = new VectorScan(EMBEDDING_DIMENSIONS);
  /** What the table said at the last look, and the same of what is held (count, newest and sum of updated_at). */
  private fingerprint: KnowledgeFingerprint | null = null;
  private newestMs = -Infinity;
  private sumMs = 0n;
  private providers: ProviderTarget[] = [];
  private checkedAt = -Infinity;
  /** Writes through this process so far: one during a look makes the next search look again. */
  private writes = 0;
  private refreshing: Promise<void> | null = null;

  constructor(private readonly deps: KnowledgeBaseDeps) {}

  /** Makes an entry's embedding, asking the AI providers in order; a few tries, then the run fails with why. */
  readonly embedRun = runKind<{ entryId: number }, EmbedOutcome>('knowledge-embed', (run) => run.step('embed', () => this.embedEntry(run.input.entryId, run.signal)));

  /** Fills the memory now rather than at the first search (errors are the first search's). */
  warm(): void {
    // Its failure is logged by the look; the first search looks again.
    this.fresh().catch(() => undefined);
  }

  async list(category?: string): Promise<KnowledgeEntryView[]> {
    return (await knowledgeStore.list(this.deps.prisma, category)).map(entryView);
  }

  categories(): Promise<{ category: string; count: number }[]> {
    return knowledgeStore.categories(this.deps.prisma);
  }

  /** Adds an entry and, in the same transaction, the run that embeds it. */
  async create(fields: KnowledgeFields, startedBy: string): Promise<KnowledgeEntryView> {
    const row = await this.deps.prisma.$transaction(async (tx) => {
      const created = await knowledgeStore.create(tx, fields);
      await this.deps.runs.begin(this.embedRun, { entryId: created.id }, { startedBy }, tx);
      return created;
    });
    this.written();
    return entryView(row);
  }

  /** Changes an entry; a changed text drops its embedding and a run makes the new one. Null when there is no such entry. */
  async update(id: number, fields: KnowledgeFields, startedBy: string): Promise<KnowledgeEntryView | null> {
    const updated = await this.deps.prisma.$transaction(async (tx) => {
      const result = await knowledgeStore.update(tx, id, fields);
      if (result?.textChanged) await this.deps.runs.begin(this.embedRun, { entryId: id }, { startedBy }, tx);
      return result;
    });
    if (!updated) return null;
    this.written();
    return entryView(updated.row);
  }

  async delete(id: number): Promise<boolean> {
    const deleted = await knowledgeStore.delete(this.deps.prisma, id);
    if (deleted) this.written();
    return deleted;
  }

  /**
   * The `limit` entries that best fit `query`, best first: by their words and, when the AI
   * providers make the query's embedding, by meaning (hybrid), the two rankings fused by
   * reciprocal rank fusion (k = 60). Words only, with the reason, when meaning cannot be used.
   * `signal` ends the wait for the query's embedding (then: words only).
   */
  async search(query: string, limit: number, options: { signal?: AbortSignal } = {}): Promise<KnowledgeSearchResult> {
    await this.fresh();
    const meaning = this.queryVector(query, options.signal);
    const { words, joined } = queryWords(query);
    const byWords = this.keywords.search(words, CANDIDATES, joined);
    const asked = await meaning;
    const byMeaning = 'vector' in asked ? this.vectors.nearest(asked.vector, asked.model, CANDIDATES, MIN_MEANING_SIMILARITY) : [];

    const keywordOf = new Map(byWords.map((hit) => [hit.id, hit]));
    const cosineOf = new Map(byMeaning.map((hit) => [hit.id, hit.score]));
    const fused = reciprocalRankFusion([byWords.map((hit) => hit.id), byMeaning.map((hit) => hit.id)]).slice(0, limit);
    const entries = fused.flatMap(({ id }): KnowledgeSearchHit[] => {
      const held = this.entries.get(id);
      if (!held) return [];
      const keyword = keywordOf.get(id);
      const cosine = cosineOf.get(id);
      return [{
        ...held.view,
        embedded: held.model !== null,
        similarity: Math.min(1, Math.max(0, cosine ?? 0, keyword?.coverage ?? 0)),
        foundBy: [...(keyword ? ['keywords' as const] : []), ...(cosine !== undefined ? ['meaning' as const] : [])],
      }];
    });
    if (!('vector' in asked)) return { entries, mode: 'keyword', reason: asked.reason };
    const missing = [...this.entries.values()].filter((held) => held.model !== asked.model).length;
    return { entries, mode: 'hybrid', reason: missing > 0 ? knowledgeSearchTexts.someNotEmbedded(missing, this.entries.size) : null };
  }

  /** The query's vector (unit length) and its model, or why meaning cannot be used. */
  private async queryVector(query: string, signal?: AbortSignal): Promise<{ vector: Float32Array; model: string } | { reason: string }> {
    const { ai } = this.deps;
    const capable = ai.embeddingTargets(this.providers);
    if (capable.length === 0) return { reason: knowledgeSearchTexts.noProvider };
    const keyed = capable.filter((target) => ai.keyPresent(target.apiKeyEnvVar));
    if (keyed.length === 0) return { reason: knowledgeSearchTexts.noKey([...new Set(capable.map((target) => target.apiKeyEnvVar))]) };
    // Nothing to compare with: the embeddings call is not worth making.
    if (this.vectors.size === 0) return { reason: knowledgeSearchTexts.noneEmbedded(this.entries.size) };
    const deadline = AbortSignal.timeout(QUERY_EMBEDDING_TIMEOUT_MS);
    const answer = await ai.embed(keyed, [query], signal ? AbortSignal.any([signal, deadline]) : deadline);
    if (answer.ok) {
      const vector = unitVector(answer.vectors[0]);
      return vector ? { vector, model: answer.model } : { reason: knowledgeSearchTexts.queryNotEmbedded('it answered a zero vector') };
    }
    return { reason: deadline.aborted ? knowledgeSearchTexts.queryTooSlow : knowledgeSearchTexts.queryNotEmbedded(answer.reason) };
  }

  // -------------------------------------------------------------------------------------------
  // The memory

  /** A write through this process: the next search looks at the table at once. */
  private written(): void {
    this.writes++;
    this.checkedAt = -Infinity;
  }

  /**
   * Looks at the table (the memory and the providers list) when the last look is older than
   * KNOWLEDGE_REFRESH_MS, one look at a time: beside the search while the last look is younger
   * than KNOWLEDGE_STALE_MS, else (and after a write here) waited for.
   */
  private async fresh(): Promise<void> {
    for (;;) {
      const age = performance.now() - this.checkedAt;
      if (age < KNOWLEDGE_REFRESH_MS) return;
      const looking = this.refreshing ?? this.look();
      if (age < KNOWLEDGE_STALE_MS) return;
      // A write here during that look leaves the memory due again: look once more.
      await looking;
    }
  }

  /** One look at a time; a failed one is logged (and thrown to whoever waits for it). */
  private look(): Promise<void> {
    const looking = this.refresh().finally(() => (this.refreshing = null));
    looking.catch((error: unknown) => this.deps.logger.warn({ err: error }, 'knowledge base: looking for changes failed; the next search looks again'));
    this.refreshing = looking;
    return looking;
  }

  private async refresh(): Promise<void> {
    const { prisma } = this.deps;
    const startedAt = performance.now();
    const writes = this.writes;
    const [fingerprint, providers] = await Promise.all([knowledgeStore.fingerprint(prisma), this.deps.providers?.() ?? providersStore.targets(prisma)]);
    this.providers = providers;
    if (!this.fingerprint || !sameFingerprint(this.fingerprint, fingerprint)) {
      // First the rows changed since the newest one held (an edit, an embedding made); every row's version only when that does not
      // explain the difference: a removal, a transaction that committed late, or a replica whose clock is behind.
      let read = this.entries.size > 0 ? await this.catchUp(await knowledgeStore.versions(prisma, new Date(this.newestMs)), false) : 0;
      if (!sameFingerprint(this.heldFingerprint(), fingerprint)) read += await this.catchUp(await knowledgeStore.versions(prisma), true);
      if (read > 100) this.deps.logger.info({ entries: this.entries.size, read, ms: Math.round(performance.now() - startedAt) }, 'knowledge base read into memory');
    }
    this.fingerprint = fingerprint;
    if (this.writes === writes) this.checkedAt = startedAt;
  }

  /** Reads again the rows whose version differs from what is held; with `complete`, forgets those not listed. Answers how many rows were read. */
  private async catchUp(versions: { id: number; updated_at: Date }[], complete: boolean): Promise<number> {
    if (complete) {
      const present = new Set(versions.map((row) => row.id));
      for (const id of [...this.entries.keys()]) if (!present.has(id)) this.forget(id);
    }
    const changed = versions.filter((row) => this.entries.get(row.id)?.updatedAtMs !== row.updated_at.getTime()).map((row) => row.id);
    for (let i = 0; i < changed.length; i += LOAD_BATCH) {
      const batch = changed.slice(i, i + LOAD_BATCH);
      const rows = await knowledgeStore.indexRows(this.deps.prisma, batch);
      for (const row of rows) this.hold(row);
      // Removed between the two reads.
      const found = new Set(rows.map((row) => row.id));
      for (const id of batch) if (!found.has(id)) this.forget(id);
    }
    return changed.length;
  }

  /** The fingerprint of what is held, to compare with the table's. */
  private heldFingerprint(): KnowledgeFingerprint {
    return { count: this.entries.size, latest: this.entries.size > 0 ? new Date(this.newestMs) : null, total: String(this.sumMs) };
  }

  private hold(row: IndexRow): void {
    const raw = row.embedding && row.embedding_model && embeddingModels.has(row.embedding_model) ? vectorFromBytes(row.embedding, EMBEDDING_DIMENSIONS) : null;
    const vector = raw ? unitVector(raw) : null;
    if (vector) this.vectors.set(row.id, vector, row.embedding_model!);
    else this.vectors.remove(row.id);
    const updatedAtMs = row.updated_at.getTime();
    const before = this.entries.get(row.id);
    this.entries.set(row.id, {
      view: {
        id: row.id,
        category: row.category,
        title: row.title,
        content: row.content,
        metadata: (row.metadata ?? {}) as Record<string, unknown>,
        createdAt: isoOf(row.created_at),
        updatedAt: isoOf(row.updated_at),
      },
      updatedAtMs,
      model: vector ? row.embedding_model : null,
    });
    this.sumMs += BigInt(updatedAtMs) - BigInt(before?.updatedAtMs ?? 0);
    if (updatedAtMs >= this.newestMs) this.newestMs = updatedAtMs;
    else if (before?.updatedAtMs === this.newestMs) this.newestMs = this.newestHeld();
    const words = new Map<string, number>();
    const add = (list: [string, number][], weight: number) => {
      for (const [lexeme, count] of list) {
        const word = lexeme.toLowerCase();
        words.set(word, (words.get(word) ?? 0) + count * weight);
      }
    };
    add(row.head_words, HEAD_WEIGHT);
    add(row.body_words, 1);
    this.keywords.set(row.id, words);
  }

  private forget(id: number): void {
    const held = this.entries.get(id);
    if (!held) return;
    this.entries.delete(id);
    this.keywords.remove(id);
    this.vectors.remove(id);
    this.sumMs -= BigInt(held.updatedAtMs);
    if (held.updatedAtMs === this.newestMs) this.newestMs = this.newestHeld();
  }

  private newestHeld(): number {
    let newest = -Infinity;
    for (const held of this.entries.values()) if (held.updatedAtMs > newest) newest = held.updatedAtMs;
    return newest;
  }

  // -------------------------------------------------------------------------------------------
  // The embed run

  private async embedEntry(entryId: number, signal: AbortSignal): Promise<EmbedOutcome> {
    const { prisma, ai } = this.deps;
    const delays = this.deps.embedRetryDelaysMs ?? EMBED_RETRY_DELAYS_MS;
    for (let tries = 1; ; tries++) {
      const entry = await knowledgeStore.findForEmbedding(prisma, entryId);
      if (!entry) return { embedded: false, why: 'the entry was deleted', tries };
      if (entry.embeddingModel && embeddingModels.has(entry.embeddingModel)) return { embedded: false, why: 'it is embedded already', tries };
      const providers = await (this.deps.providers?.() ?? providersStore.targets(prisma));
      const answer = await ai.embed(providers, [embeddingText(entry)], signal);
      if (answer.ok) {
        const kept = await knowledgeStore.saveEmbedding(prisma, entry, vectorToBytes(answer.vectors[0]), answer.model);
        this.written();
        if (!kept) return { embedded: false, why: 'its text changed meanwhile: the run of that change embeds it', tries };
        return { embedded: true, model: answer.model, dimensions: answer.vectors[0].length, providerId: answer.providerId, tries };
      }
      // None could be asked (none makes embeddings, or no key): another try would not change that.
      const asked = answer.errors.length > 0;
      if (!asked || tries > delays.length) throw new Error(`No AI provider made the embedding${tries > 1 ? ` in ${tries} tries` : ''}: ${answer.reason}`);
      this.deps.logger.info({ entryId, tries, reason: answer.reason }, 'knowledge entry not embedded yet; trying again');
      await sleep(delays[tries - 1], undefined, { signal });
    }
  }
}

function sameFingerprint(a: KnowledgeFingerprint, b: KnowledgeFingerprint): boolean {
  return a.count === b.count && a.total === b.total && (a.latest?.getTime() ?? null) === (b.latest?.getTime() ?? null);
}
