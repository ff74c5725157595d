import { describe, expect, it } from 'vitest';
import {
  cosineSimilarity,
  dot,
  KeywordIndex,
  queryWords,
  reciprocalRankFusion,
  RRF_K,
  trigramSimilarity,
  trigrams,
  unitVector,
  vectorFromBytes,
  vectorToBytes,
} from '../../src/domain/knowledge-ranking';
import { bestOf, VectorScan } from '../../src/domain/vector-scan';

const v = (...values: number[]) => Float32Array.from(values);

describe('reciprocal rank fusion (k = 60)', () => {
  it('adds 1 / (k + rank) from every ranking that holds an id, rank counted from 1', () => {
    expect(RRF_K).toBe(60);
    const fused = reciprocalRankFusion([['a', 'b', 'c'], ['c', 'a']]);
    expect(fused.map((hit) => hit.id)).toEqual(['a', 'c', 'b']);
    expect(fused[0].score).toBeCloseTo(1 / 61 + 1 / 62, 12);
    expect(fused[1].score).toBeCloseTo(1 / 63 + 1 / 61, 12);
    expect(fused[2].score).toBeCloseTo(1 / 62, 12);
  });

  it('puts an id both rankings hold above ids only one holds first', () => {
    // "both" is 10th by words and 10th by meaning; each list's own first is in one list only.
    const words = ['w1', 'w2', 'w3', 'w4', 'w5', 'w6', 'w7', 'w8', 'w9', 'both'];
    const meaning = ['m1', 'm2', 'm3', 'm4', 'm5', 'm6', 'm7', 'm8', 'm9', 'both'];
    expect(reciprocalRankFusion([words, meaning])[0]).toEqual({ id: 'both', score: 2 / 70 });
  });

  it('keeps the order the rankings first named equal scores in, takes another k, and is empty for no rankings', () => {
    expect(reciprocalRankFusion([['x'], ['y']]).map((hit) => hit.id)).toEqual(['x', 'y']);
    expect(reciprocalRankFusion([['y'], ['x']]).map((hit) => hit.id)).toEqual(['y', 'x']);
    expect(reciprocalRankFusion([['x', 'y']], 0)).toEqual([{ id: 'x', score: 1 }, { id: 'y', score: 0.5 }]);
    expect(reciprocalRankFusion([])).toEqual([]);
    expect(reciprocalRankFusion([[], []])).toEqual([]);
  });
});

describe('cosine similarity and unit vectors', () => {
  it('is 1 for the same direction whatever the length, 0 for orthogonal, −1 for opposite', () => {
    expect(cosineSimilarity(v(1, 2, 3), v(2, 4, 6))).toBeCloseTo(1, 6);
    expect(cosineSimilarity(v(1, 0, 0, 0, 0), v(0, 0, 0, 0, 7))).toBe(0);
    expect(cosineSimilarity(v(1, -2, 3), v(-1, 2, -3))).toBeCloseTo(-1, 6);
    expect(cosineSimilarity(v(1, 1), v(1, 0))).toBeCloseTo(Math.SQRT1_2, 6);
  });

  it('is 0 for a zero vector or vectors of different lengths', () => {
    expect(cosineSimilarity(v(0, 0, 0), v(1, 2, 3))).toBe(0);
    expect(cosineSimilarity(v(1, 2), v(1, 2, 3))).toBe(0);
  });

  it('dots any length (the four running sums and the rest)', () => {
    for (let length = 0; length <= 9; length++) {
      const a = Float32Array.from({ length }, (_, i) => i + 1);
      const b = Float32Array.from({ length }, (_, i) => (i % 2 ? -0.5 : 2));
      const expected = Array.from(a).reduce((sum, value, i) => sum + value * b[i], 0);
      expect(dot(a, b)).toBeCloseTo(expected, 9);
    }
  });

  it('makes unit vectors, whose dot product is their cosine; none of a zero vector', () => {
    const a = unitVector(v(3, 4))!;
    expect(Array.from(a)).toEqual([Math.fround(0.6), Math.fround(0.8)]);
    const x = v(0.3, -1.2, 2.5, 0.01, 7);
    const y = v(-0.4, 0.9, 2.2, 1.5, -3);
    expect(dot(unitVector(x)!, unitVector(y)!)).toBeCloseTo(cosineSimilarity(x, y), 6);
    expect(unitVector(v(0, 0))).toBeNull();
  });

  it('keeps vectors as little-endian float32 bytes and reads them back only at the expected length', () => {
    const bytes = vectorToBytes(v(1, -2.5));
    expect(Array.from(bytes)).toEqual([0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x20, 0xc0]);
    expect(Array.from(vectorFromBytes(bytes, 2)!)).toEqual([1, -2.5]);
    // An unaligned view (a Buffer slice) reads the same.
    const shifted = new Uint8Array(bytes.length + 1);
    shifted.set(bytes, 1);
    expect(Array.from(vectorFromBytes(shifted.subarray(1), 2)!)).toEqual([1, -2.5]);
    expect(vectorFromBytes(bytes, 3)).toBeNull();
    const big = Float32Array.from({ length: 1536 }, (_, i) => Math.sin(i));
    expect(vectorFromBytes(vectorToBytes(big), 1536)).toEqual(big);
  });

  it('picks the best scores, best first, equal ones by the smaller id', () => {
    const scores = [0.1, 0.9, 0.5, 0.7, 0.3, 0.95];
    expect(bestOf([1, 2, 3, 4, 5, 6], scores, 3)).toEqual([{ id: 6, score: 0.95 }, { id: 2, score: 0.9 }, { id: 4, score: 0.7 }]);
    expect(bestOf([9, 3, 7, 1], [0.5, 0.5, 0.5, 0.5], 3).map((hit) => hit.id)).toEqual([1, 3, 7]);
    expect(bestOf([], [], 3)).toEqual([]);
  });
});

describe('the vector scan (exact cosine over every vector held, WebAssembly SIMD)', () => {
  let seed = 7;
  const random = () => ((seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0) / 2 ** 32 - 0.5);
  const randomUnit = (dimensions: number) => unitVector(Float32Array.from({ length: dimensions }, random))!;

  it('runs as WebAssembly SIMD here, and gives the cosine of every vector as plain JavaScript does, to float32 precision', () => {
    const simd = new VectorScan(1536);
    const plain = new VectorScan(1536, { simd: false });
    expect([simd.simd, plain.simd]).toEqual([true, false]);
    const vectors = Array.from({ length: 300 }, () => randomUnit(1536));
    vectors.forEach((vector, i) => {
      simd.set(i + 1, vector, 'm');
      plain.set(i + 1, vector, 'm');
    });
    const query = randomUnit(1536);
    const fast = simd.nearest(query, 'm', 300);
    const slow = plain.nearest(query, 'm', 300);
    expect(fast).toHaveLength(300);
    const exact = new Map(vectors.map((vector, i) => [i + 1, cosineSimilarity(vector, query)]));
    for (const hit of [...fast, ...slow]) expect(Math.abs(hit.score - exact.get(hit.id)!)).toBeLessThan(1e-5);
    expect(fast.slice(0, 10).map((hit) => hit.id)).toEqual(slow.slice(0, 10).map((hit) => hit.id));
    expect(fast[0].score).toBeCloseTo(Math.max(...exact.values()), 5);
  });

  it('finds a vector itself at cosine 1, keeps only the given model and the floor, and forgets removed vectors', () => {
    const scan = new VectorScan(8);
    const a = unitVector(v(1, 0, 0, 0, 0, 0, 0, 0))!;
    const b = unitVector(v(1, 1, 0, 0, 0, 0, 0, 0))!;
    const c = unitVector(v(0, 0, 1, 0, 0, 0, 0, 0))!;
    scan.set(10, a, 'small');
    scan.set(20, b, 'small');
    scan.set(30, c, 'small');
    scan.set(40, a, 'other model');
    const hits = scan.nearest(a, 'small', 5);
    expect(hits.map((hit) => hit.id)).toEqual([10, 20, 30]);
    expect(hits[0].score).toBeCloseTo(1, 6);
    expect(hits[1].score).toBeCloseTo(Math.SQRT1_2, 6);
    expect(scan.nearest(a, 'small', 5, 0.5).map((hit) => hit.id)).toEqual([10, 20]);
    scan.remove(10);
    scan.remove(10);
    expect(scan.size).toBe(3);
    expect(scan.nearest(a, 'small', 5, 0.5).map((hit) => hit.id)).toEqual([20]);
    // A replaced vector, and a new one in the freed slot.
    scan.set(20, c, 'small');
    scan.set(50, b, 'small');
    expect(scan.nearest(a, 'small', 5, 0.5).map((hit) => hit.id)).toEqual([50]);
    expect(() => scan.set(60, v(1, 2, 3), 'small')).toThrow('a vector of 3 values, not 8');
  });

  it('grows its memory as vectors come, keeping every one', () => {
    const scan = new VectorScan(1536);
    const vectors = Array.from({ length: 1_000 }, () => randomUnit(1536));
    vectors.forEach((vector, i) => scan.set(i, vector, 'm'));
    for (const probe of [0, 63, 64, 500, 999]) expect(scan.nearest(vectors[probe], 'm', 1)[0]).toMatchObject({ id: probe, score: expect.closeTo(1, 5) });
  });
});

describe("trigrams as pg_trgm makes them", () => {
  it("gives pg_trgm's own figures", () => {
    // PostgreSQL's documentation: show_trgm('word') and similarity('word', 'two words') = 0.36363637.
    expect([...trigrams('word')].sort()).toEqual(['  w', ' wo', 'ord', 'rd ', 'wor']);
    expect(trigramSimilarity('word', 'two words')).toBeCloseTo(4 / 11, 6);
    expect(trigramSimilarity('Netflix', 'netflix')).toBe(1);
    expect(trigramSimilarity('төлбөр', 'төлбөрөө')).toBeGreaterThan(0.5);
    expect(trigramSimilarity('', 'word')).toBe(0);
  });
});

describe("a query's words, split as PostgreSQL's simple configuration splits ordinary text", () => {
  it('lowercases runs of letters and digits, Cyrillic too, once each', () => {
    expect(queryWords('How much is Netflix Premium 3 months? netflix')).toEqual({ words: ['how', 'much', 'is', 'netflix', 'premium', '3', 'months'], joined: [] });
    expect(queryWords('Нетфликс 6 САР үнэ хэд вэ 25,000₮').words).toEqual(['нетфликс', '6', 'сар', 'үнэ', 'хэд', 'вэ', '25', '000']);
    expect(queryWords("I can't pay 🙂")).toEqual({ words: ['i', 'can', 't', 'pay'], joined: [] });
    expect(queryWords('  ?! ')).toEqual({ words: [], joined: [] });
  });

  it('keeps tokens joined by - @ . / _ whole beside their parts', () => {
    expect(queryWords('QPay-ээр, bat@shop.mn and v2.5')).toEqual({ words: ['qpay', 'ээр', 'bat', 'shop', 'mn', 'and', 'v2', '5'], joined: ['qpay-ээр', 'bat@shop.mn', 'v2.5'] });
  });
});

describe('the keyword index (BM25, misspellings by likeness)', () => {
  const words = (text: string) => {
    const counts = new Map<string, number>();
    for (const word of text.toLowerCase().split(/\s+/).filter(Boolean)) counts.set(word, (counts.get(word) ?? 0) + 1);
    return counts;
  };
  const index = () => {
    const built = new KeywordIndex();
    built.set(1, words('how to pay with qpay'));
    built.set(2, words('how to share a netflix profile'));
    built.set(3, words('how to get a refund'));
    built.set(4, words('netflix netflix netflix price list'));
    return built;
  };

  it('ranks the entry holding the rarer words first, and says what share of the query it holds', () => {
    const hits = index().search(['how', 'to', 'refund'], 10);
    expect(hits[0]).toMatchObject({ id: 3, coverage: 1 });
    expect(hits.map((hit) => hit.id).sort()).toEqual([1, 2, 3]);
    // "how" and "to" are in three of four entries: holding only them is a small share.
    expect(hits[1].coverage).toBeLessThan(0.5);
  });

  it('saturates repeated words (BM25) and favours the shorter entry for the same word', () => {
    const hits = index().search(['netflix'], 10);
    expect(hits.map((hit) => hit.id)).toEqual([4, 2]);
    expect(hits[0].score / hits[1].score).toBeLessThan(3);
  });

  it('matches a misspelt word by its likeness, but short words and numbers only exactly', () => {
    const built = index();
    const [hit] = built.search(['netflx'], 10);
    expect(hit.id).toBe(4);
    expect(hit.coverage).toBeCloseTo(trigramSimilarity('netflx', 'netflix'), 6);
    expect(built.search(['refnd'], 10).map((one) => one.id)).toEqual([3]);
    expect(built.search(['pa'], 10)).toEqual([]);
    built.set(5, words('3 months'));
    expect(built.search(['6'], 10)).toEqual([]);
    expect(built.search(['zzzz'], 10)).toEqual([]);
  });

  it('replaces and removes entries, forgetting words no entry holds any more', () => {
    const built = index();
    built.set(3, words('refunds take three days'));
    expect(built.search(['get'], 10)).toEqual([]);
    expect(built.search(['refunds'], 10)[0]).toMatchObject({ id: 3, coverage: 1 });
    built.remove(3);
    built.remove(3);
    expect(built.size).toBe(3);
    expect(built.search(['refunds'], 10)).toEqual([]);
    expect(built.search(['refundz'], 10)).toEqual([]);
    expect(new KeywordIndex().search(['anything'], 10)).toEqual([]);
  });

  it('counts a joined token only where an entry holds it, and then exactly', () => {
    const built = new KeywordIndex();
    built.set(1, new Map([['qpay-ээр', 1], ['qpay', 1], ['ээр', 1], ['төлөх', 1]]));
    built.set(2, new Map([['qpay', 1], ['invoice', 1]]));
    const { words: parts, joined } = queryWords('QPay-ээр');
    const [first, second] = built.search(parts, 10, joined);
    expect([first.id, first.coverage, second.id]).toEqual([1, 1, 2]);
    // Not held by any entry: it neither matches nor lowers the share of the query an entry holds.
    expect(built.search(['qpay'], 10, ['qpay-ийн'])).toEqual(built.search(['qpay'], 10));
  });

  it('gives at most `limit` hits, ties by id', () => {
    const built = new KeywordIndex();
    for (let id = 10; id > 0; id--) built.set(id, words('same words'));
    expect(built.search(['same'], 3).map((hit) => hit.id)).toEqual([1, 2, 3]);
  });
});
