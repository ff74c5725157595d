import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { getJson, MemoryCache, MemoryLock, RedisCache, RedisLock, setJson, type Cache, type Lock } from '@bo/platform/cache';

const redisCache = RedisCache.connect('redis://127.0.0.1:6379', `cache-test-${randomUUID()}:`);
afterAll(() => redisCache.close());

const caches: [string, () => Cache][] = [
  ['memory', () => new MemoryCache()],
  ['redis', () => redisCache],
];

describe.each(caches)('%s cache', (_name, make) => {
  it('stores values with a TTL and forgets them after it', async () => {
    const cache = make();
    await cache.set('a', 'one', 1);
    expect(await cache.get('a')).toBe('one');
    expect(await cache.ttl('a')).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect(await cache.get('a')).toBeNull();
    expect(await cache.ttl('a')).toBeNull();
  });

  it('deletes, and reads JSON with corrupt entries as misses', async () => {
    const cache = make();
    await setJson(cache, 'j', { n: 1 }, 60);
    expect(await getJson(cache, 'j')).toEqual({ n: 1 });
    await cache.set('j', '{not json', 60);
    expect(await getJson(cache, 'j')).toBeNull();
    await cache.delete('j');
    expect(await cache.get('j')).toBeNull();
    await cache.ping();
  });
});

describe('redis cache isolation', () => {
  it('keeps two prefixes apart', async () => {
    const other = RedisCache.connect('redis://127.0.0.1:6379', `cache-test-${randomUUID()}:`);
    await redisCache.set('shared-name', 'mine', 60);
    expect(await other.get('shared-name')).toBeNull();
    await other.close();
  });
});

const locks: [string, () => Lock][] = [
  ['memory', () => new MemoryLock()],
  ['redis', () => new RedisLock(redisCache.redis, `lock-test-${randomUUID()}:`)],
];

describe.each(locks)('%s lock', (_name, make) => {
  it('lets one holder run at a time and frees the lease afterwards', async () => {
    const lock = make();
    let release!: () => void;
    const first = lock.withLock('job', 5_000, () => new Promise<string>((resolve) => (release = () => resolve('done'))));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await lock.withLock('job', 5_000, async () => 'second')).toEqual({ acquired: false });
    expect(await lock.withLock('other-job', 5_000, async () => 'other')).toEqual({ acquired: true, result: 'other' });
    release();
    expect(await first).toEqual({ acquired: true, result: 'done' });
    expect(await lock.withLock('job', 5_000, async () => 'third')).toEqual({ acquired: true, result: 'third' });
  });

  it('frees the lease when the work throws', async () => {
    const lock = make();
    await expect(lock.withLock('job', 5_000, async () => { throw new Error('boom'); })).rejects.toThrow('boom');
    expect(await lock.withLock('job', 5_000, async () => 'after')).toEqual({ acquired: true, result: 'after' });
  });
});

describe('redis lock lease', () => {
  it('expires a lease whose holder died, and a late finisher does not free the next holder\'s lease', async () => {
    const prefix = `lock-test-${randomUUID()}:`;
    const lock = new RedisLock(redisCache.redis, prefix);
    let finishSlow!: () => void;
    const slow = lock.withLock('job', 100, () => new Promise<void>((resolve) => (finishSlow = resolve)));
    await new Promise((resolve) => setTimeout(resolve, 150)); // lease ran out while the holder still works
    let finishNext!: () => void;
    const next = lock.withLock('job', 5_000, () => new Promise<void>((resolve) => (finishNext = resolve)));
    await new Promise((resolve) => setTimeout(resolve, 20));
    finishSlow();
    await slow;
    expect(await lock.withLock('job', 5_000, async () => 'intruder')).toEqual({ acquired: false });
    finishNext();
    await next;
  });
});
