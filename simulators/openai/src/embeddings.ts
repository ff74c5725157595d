/**
 * Deterministic, meaningful unit vectors: word unigrams and character trigrams are hashed into
 * signed buckets, so texts sharing words (or word pieces) point in similar directions.
 */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

export function embedText(text: string, dimensions: number): number[] {
  const vector = new Float64Array(dimensions);
  const add = (feature: string, weight: number) => {
    const bucket = fnv1a(feature) % dimensions;
    const sign = fnv1a(`sign:${feature}`) & 1 ? 1 : -1;
    vector[bucket] += sign * weight;
  };
  const words = text.normalize('NFKC').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  for (const word of words) {
    add(`w:${word}`, 1);
    const padded = `#${word}#`;
    for (let i = 0; i + 3 <= padded.length; i++) add(`t:${padded.slice(i, i + 3)}`, 0.4);
  }
  const norm = Math.hypot(...vector);
  if (norm === 0) vector[0] = 1;
  // float32 values, as the real API serves them, so float and base64 encodings carry equal numbers
  return Array.from(vector, (x) => Math.fround(norm === 0 ? x : x / norm));
}

/** The base64 encoding: little-endian float32 values. */
export function toBase64(vector: number[]): string {
  const buffer = Buffer.alloc(vector.length * 4);
  vector.forEach((x, i) => buffer.writeFloatLE(x, i * 4));
  return buffer.toString('base64');
}

/** A rough token count (about four characters a token) for `usage`. */
export const countTokens = (text: string) => Math.max(1, Math.ceil(text.length / 4));
