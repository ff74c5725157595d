import { describe, expect, it } from 'vitest';
import { PublicReadCache, type CachedResponse } from '../../src/domain/public-read-cache';

const answer = (body: string): CachedResponse => ({ statusCode: 200, headers: { 'content-type': 'application/json' }, body: Buffer.from(body) });

function cacheWithClock(ttlMs: number) {
  let now = 1_000;
  const cache = new PublicReadCache(ttlMs, () => now);
  return { cache, advance: (ms: number) => (now += ms) };
}

describe('PublicReadCache', () => {
  it('keeps an answer for its TTL and never serves one older', () => {
    const { cache, advance } = cacheWithClock(2_000);
    cache.put('pricing', '/api/prices', cache.generation('pricing'), answer('a'));
    expect(cache.lookup('/api/prices')?.body.toString()).toBe('a');
    advance(2_000);
    expect(cache.lookup('/api/prices')).toBeNull();
    expect(cache.get('pricing', '/api/prices')).toBeNull();
  });

  it('hands exactly one read the refresh once half the TTL has passed; the others keep the kept answer', () => {
    const { cache, advance } = cacheWithClock(2_000);
    cache.put('pricing', '/api/prices', cache.generation('pricing'), answer('a'));
    advance(1_000);
    expect(cache.lookup('/api/prices')).toBeNull(); // the early path leaves the due refresh to the full path
    expect(cache.get('pricing', '/api/prices')).toBeNull(); // this read fetches
    expect(cache.get('pricing', '/api/prices')?.body.toString()).toBe('a');
    expect(cache.lookup('/api/prices')?.body.toString()).toBe('a');
    cache.put('pricing', '/api/prices', cache.generation('pricing'), answer('b'));
    expect(cache.lookup('/api/prices')?.body.toString()).toBe('b');
  });

  it('drops everything of a service on a write, and refuses what a read fetched before the write', () => {
    const { cache } = cacheWithClock(2_000);
    const before = cache.generation('pricing');
    cache.put('pricing', '/api/prices', before, answer('old'));
    cache.invalidate('pricing');
    expect(cache.lookup('/api/prices')).toBeNull();
    cache.put('pricing', '/api/prices', before, answer('fetched before the write'));
    expect(cache.lookup('/api/prices')).toBeNull();
    cache.put('pricing', '/api/prices', cache.generation('pricing'), answer('new'));
    expect(cache.lookup('/api/prices')?.body.toString()).toBe('new');
  });

  it('keeps nothing when the TTL is zero, and never keeps error answers', () => {
    const off = new PublicReadCache(0);
    off.put('pricing', '/api/prices', 0, answer('a'));
    expect(off.lookup('/api/prices')).toBeNull();
    const { cache } = cacheWithClock(2_000);
    cache.put('pricing', '/api/prices', 0, { ...answer('down'), statusCode: 503 });
    expect(cache.lookup('/api/prices')).toBeNull();
  });
});
