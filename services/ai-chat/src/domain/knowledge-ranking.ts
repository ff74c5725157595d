import { bestOf } from './vector-scan';

/**
 * The knowledge base's ranking, pure (issue 21): entries ranked by their words (BM25 over
 * PostgreSQL's `simple` lexemes, a misspelt word matched by trigram likeness as pg_trgm measures
 * it) and by meaning (exact cosine similarity of embeddings), the two rankings fused by reciprocal
 * rank fusion.
 */

/** Reciprocal rank fusion's constant (Cormack, Clarke and Büttcher, 2009): damps the weight of the very first ranks. */
export const RRF_K = 60;

/**
 * Fuses rankings (each a list of ids, best first) by reciprocal rank fusion: every list adds
 * 1 / (k + rank) to each id it holds, rank counted from 1. Best first; equal scores keep the
 * order in which the lists first named them.
 */
export function reciprocalRankFusion<Id>(rankings: readonly (readonly Id[])[], k = RRF_K): { id: Id; score: number }[] {
  const scores = new Map<Id, number>();
  for (const ranking of rankings) ranking.forEach((id, index) => scores.set(id, (scores.get(id) ?? 0) + 1 / (k + index + 1)));
  return [...scores].map(([id, score]) => ({ id, score })).sort((a, b) => b.score - a.score);
}

// ---------------------------------------------------------------------------------------------
// Vectors

/** The dot product of two vectors of equal length (four running sums: about twice as fast in V8 as one). */
export function dot(a: Float32Array, b: Float32Array): number {
  const n = a.length;
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let i = 0;
  for (; i + 3 < n; i += 4) {
    s0 += a[i] * b[i];
    s1 += a[i + 1] * b[i + 1];
    s2 += a[i + 2] * b[i + 2];
    s3 += a[i + 3] * b[i + 3];
  }
  for (; i < n; i++) s0 += a[i] * b[i];
  return s0 + s1 + s2 + s3;
}

/** A copy of the vector at unit length (its cosine with another unit vector is their dot product); null for a zero vector. */
export function unitVector(vector: Float32Array): Float32Array | null {
  const norm = Math.sqrt(dot(vector, vector));
  if (!Number.isFinite(norm) || norm === 0) return null;
  const unit = new Float32Array(vector.length);
  for (let i = 0; i < vector.length; i++) unit[i] = vector[i] / norm;
  return unit;
}

/** Cosine similarity, −1 to 1 (0 when either vector is zero or their lengths differ). */
export function cosineSimilarity(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) return 0;
  const norms = Math.sqrt(dot(a, a) * dot(b, b));
  return norms === 0 ? 0 : dot(a, b) / norms;
}

/** How a vector is kept (knowledge_base.embedding): its float32 values, little-endian. */
export function vectorToBytes(vector: Float32Array): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(vector.length * 4);
  const view = new DataView(bytes.buffer);
  vector.forEach((value, i) => view.setFloat32(i * 4, value, true));
  return bytes;
}

/** The vector kept in `bytes`; null unless they hold exactly `dimensions` float32 values. */
export function vectorFromBytes(bytes: Uint8Array, dimensions: number): Float32Array | null {
  if (bytes.byteLength !== dimensions * 4) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const vector = new Float32Array(dimensions);
  for (let i = 0; i < dimensions; i++) vector[i] = view.getFloat32(i * 4, true);
  return vector;
}

// ---------------------------------------------------------------------------------------------
// Trigrams, as pg_trgm counts them

/**
 * The trigrams of a text as pg_trgm makes them: each run of letters and digits, lowercased,
 * padded with two spaces before and one after, cut into every three characters in a row.
 */
export function trigrams(text: string): Set<string> {
  const set = new Set<string>();
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    const padded = Array.from(`  ${word} `);
    for (let i = 0; i + 3 <= padded.length; i++) set.add(padded.slice(i, i + 3).join(''));
  }
  return set;
}

/** pg_trgm's similarity: the trigrams two texts share over all the trigrams of either, 0 to 1. */
export function trigramSimilarity(a: string, b: string): number {
  return likeness(trigrams(a), trigrams(b));
}

function likeness(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  for (const trigram of a) if (b.has(trigram)) shared++;
  return shared / (a.size + b.size - shared);
}

// ---------------------------------------------------------------------------------------------
// Keywords

/**
 * A query's words, split here as PostgreSQL's `simple` text search configuration splits ordinary
 * text (each run of letters and digits, lowercased), so a search needs no round trip. PostgreSQL
 * also keeps a token joined by `-`, `@`, `.`, `/` or `_` whole (`netflix-ийн` beside `netflix`
 * and `ийн`; `a@b.mn` and `2.5` only whole): such tokens are `joined`, and count only where an
 * entry holds them.
 */
export function queryWords(text: string): { words: string[]; joined: string[] } {
  const lower = text.toLowerCase();
  const words: string[] = lower.match(/[\p{L}\p{N}]+/gu) ?? [];
  const joined = (lower.match(/[\p{L}\p{N}]+(?:[-@./_]+[\p{L}\p{N}]+)+/gu) ?? []).filter((token) => !words.includes(token));
  return { words: [...new Set(words)], joined: [...new Set(joined)] };
}

/** BM25's term-frequency saturation and length normalisation (the usual values). */
const BM25_K1 = 1.2;
const BM25_B = 0.75;
/** A query word at least this like an entry's word (pg_trgm's similarity) counts as that word, by its likeness. */
export const MISSPELLING_MIN_LIKENESS = 0.4;
/** A query word stands for at most this many of the entries' words it is like. */
const MISSPELLING_MAX_WORDS = 3;
/** Shorter words and numbers are matched exactly only: "3" is not "6", "uc" is not "us". */
const MISSPELLING_MIN_LENGTH = 4;

export interface KeywordHit {
  id: number;
  /** BM25, summed over the query's words (a misspelt word's by its likeness). */
  score: number;
  /** The share of the query's words found in the entry, weighted by how rare each is, 0 to 1 (a misspelt word counts by its likeness). */
  coverage: number;
}

/**
 * An inverted index of entries' words for BM25 ranking, kept in memory and changed entry by
 * entry. Each entry is given as its words (lexemes) with how often each occurs, title words
 * already weighted by the caller. Entries live in dense slots and each word's postings are plain
 * arrays of slots, so a search over 10,000 entries is a few passes over numbers.
 */
export class KeywordIndex {
  private readonly slotOf = new Map<number, number>();
  /** slot → entry id (−1: free), its length (the sum of its weighted occurrences) and its words. */
  private readonly ids: number[] = [];
  private readonly lengths: number[] = [];
  private readonly wordsOf: string[][] = [];
  private readonly free: number[] = [];
  private totalLength = 0;
  /** word → the slots holding it and how often each does, in step. */
  private readonly postings = new Map<string, { slots: number[]; counts: number[] }>();
  /** trigram → the words holding it, and each word's count of trigrams, for misspelt query words. */
  private readonly wordsByTrigram = new Map<string, Set<string>>();
  private readonly trigramCounts = new Map<string, number>();
  /** Per search, by slot: the score, the weighted share of the query held, and which query word last touched it. */
  private scores = new Float64Array(0);
  private covered = new Float64Array(0);
  private best = new Float64Array(0);
  private bestFor = new Int32Array(0);

  get size(): number {
    return this.slotOf.size;
  }

  /** Puts an entry in (replacing what it held). */
  set(id: number, words: ReadonlyMap<string, number>): void {
    this.remove(id);
    const slot = this.free.pop() ?? this.ids.length;
    const held: string[] = [];
    let length = 0;
    for (const [word, count] of words) {
      if (count <= 0) continue;
      let posting = this.postings.get(word);
      if (!posting) {
        posting = { slots: [], counts: [] };
        this.postings.set(word, posting);
        const own = trigrams(word);
        this.trigramCounts.set(word, own.size);
        for (const trigram of own) {
          let holders = this.wordsByTrigram.get(trigram);
          if (!holders) this.wordsByTrigram.set(trigram, (holders = new Set()));
          holders.add(word);
        }
      }
      posting.slots.push(slot);
      posting.counts.push(count);
      held.push(word);
      length += count;
    }
    this.slotOf.set(id, slot);
    this.ids[slot] = id;
    this.lengths[slot] = length;
    this.wordsOf[slot] = held;
    this.totalLength += length;
  }

  remove(id: number): void {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return;
    for (const word of this.wordsOf[slot]) {
      const posting = this.postings.get(word)!;
      const at = posting.slots.lastIndexOf(slot);
      // Order within a posting does not matter: the last one takes the removed one's place.
      posting.slots[at] = posting.slots[posting.slots.length - 1];
      posting.counts[at] = posting.counts[posting.counts.length - 1];
      posting.slots.pop();
      posting.counts.pop();
      if (posting.slots.length > 0) continue;
      this.postings.delete(word);
      this.trigramCounts.delete(word);
      for (const trigram of trigrams(word)) {
        const holders = this.wordsByTrigram.get(trigram);
        holders?.delete(word);
        if (holders?.size === 0) this.wordsByTrigram.delete(trigram);
      }
    }
    this.totalLength -= this.lengths[slot];
    this.slotOf.delete(id);
    this.ids[slot] = -1;
    this.lengths[slot] = 0;
    this.wordsOf[slot] = [];
    this.free.push(slot);
  }

  /**
   * The entries holding any of the query's words (or a word like a misspelt one), best first
   * (equal scores by id), at most `limit`. A `joined` word (queryWords) counts only where an entry
   * holds it exactly.
   */
  search(queryWords: readonly string[], limit: number, joined: readonly string[] = []): KeywordHit[] {
    const count = this.slotOf.size;
    if (count === 0) return [];
    const slots = this.ids.length;
    if (this.scores.length < slots) {
      this.scores = new Float64Array(slots * 2);
      this.covered = new Float64Array(slots * 2);
      this.best = new Float64Array(slots * 2);
      this.bestFor = new Int32Array(slots * 2);
    }
    const { scores, covered, best, bestFor } = this;
    scores.fill(0, 0, slots);
    covered.fill(0, 0, slots);
    bestFor.fill(-1, 0, slots);
    const averageLength = this.totalLength / count || 1;
    const idf = (documents: number) => Math.log(1 + (count - documents + 0.5) / (documents + 0.5));
    const touched: number[] = [];
    const lower = (list: readonly string[]) => list.map((word) => word.toLowerCase()).filter((word) => word !== '');
    const unique = [...new Set([...lower(queryWords), ...lower(joined).filter((word) => this.postings.has(word))])];
    const isJoined = new Set(lower(joined));
    let totalWeight = 0;
    unique.forEach((queryWord, q) => {
      // A rare word (or one no entry holds) says more about what the query wants than a common one.
      const weight = idf(this.postings.get(queryWord)?.slots.length ?? 0);
      totalWeight += weight;
      const reached: number[] = [];
      const like = isJoined.has(queryWord) && !queryWords.includes(queryWord) ? [{ word: queryWord, likeness: 1 }] : this.wordsLike(queryWord);
      for (const { word, likeness } of like) {
        const posting = this.postings.get(word)!;
        const wordIdf = likeness * idf(posting.slots.length);
        for (let p = 0; p < posting.slots.length; p++) {
          const slot = posting.slots[p];
          const occurrences = posting.counts[p];
          const norm = BM25_K1 * (1 - BM25_B + (BM25_B * this.lengths[slot]) / averageLength);
          if (scores[slot] === 0) touched.push(slot);
          scores[slot] += (wordIdf * occurrences * (BM25_K1 + 1)) / (occurrences + norm);
          if (bestFor[slot] !== q) {
            bestFor[slot] = q;
            best[slot] = 0;
            reached.push(slot);
          }
          if (likeness > best[slot]) best[slot] = likeness;
        }
      }
      for (const slot of reached) covered[slot] += weight * best[slot];
    });
    const ids = touched.map((slot) => this.ids[slot]);
    const found = touched.map((slot) => scores[slot]);
    const coverageOf = new Map(touched.map((slot) => [this.ids[slot], totalWeight > 0 ? Math.min(1, covered[slot] / totalWeight) : 0]));
    return bestOf(ids, found, limit).map(({ id, score }) => ({ id, score, coverage: coverageOf.get(id)! }));
  }

  /** The query word itself when an entry holds it, and the entries' words most like it when it is long enough to be misspelt. */
  private wordsLike(queryWord: string): { word: string; likeness: number }[] {
    const like: { word: string; likeness: number }[] = this.postings.has(queryWord) ? [{ word: queryWord, likeness: 1 }] : [];
    if (Array.from(queryWord).length < MISSPELLING_MIN_LENGTH || !/\p{L}/u.test(queryWord)) return like;
    const own = trigrams(queryWord);
    const shared = new Map<string, number>();
    for (const trigram of own) for (const word of this.wordsByTrigram.get(trigram) ?? []) shared.set(word, (shared.get(word) ?? 0) + 1);
    const candidates: { word: string; likeness: number }[] = [];
    for (const [word, common] of shared) {
      if (word === queryWord) continue;
      // likeness ≤ common / own.size: only words with enough trigrams in common are measured in full.
      if (common / own.size < MISSPELLING_MIN_LIKENESS) continue;
      const likeness = common / (own.size + this.trigramCounts.get(word)! - common);
      if (likeness >= MISSPELLING_MIN_LIKENESS) candidates.push({ word, likeness });
    }
    candidates.sort((a, b) => b.likeness - a.likeness || (a.word < b.word ? -1 : 1));
    return [...like, ...candidates.slice(0, MISSPELLING_MAX_WORDS)];
  }
}
