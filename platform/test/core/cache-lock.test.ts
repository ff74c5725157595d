import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { getJson, MemoryCache, MemoryLock, RedisCache, RedisLock, setJson, type Cache, type Lock } from '@bo/platform/cache';

const redisCache = RedisCache.connect('redis://127.0.0.1:6379', `cache-test-${randomUUID()}:`);
afterAll(() => redisCache.close());

/** Waits (polling) until `done` says so: for what happens inside a call the test cannot await. */
async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 5));
}

const caches: [string, () => Cache][] = [
  ['memory', () => new MemoryCache()],
  ['redis', () => redisCache],
];

describe.each(caches)('%s cache', (_name, make) => {
  it('stores values with a TTL and forgets them after it', async () => {
    const cache = make();
    // Read back within its TTL (a minute: no machine is that slow between two calls).
    await cache.set('long', 'kept', 60);
    expect(await cache.get('long')).toBe('kept');
    expect(await cache.ttl('long')).toBeGreaterThan(0);
    expect(await cache.ttl('long')).toBeLessThanOrEqual(60);
    // Gone once its TTL has passed (the wait is at least that long, whatever the machine).
    await cache.set('a', 'one', 1);
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
    let release: (() => void) | undefined;
    const first = lock.withLock('job', 5_000, () => new Promise<string>((resolve) => (release = () => resolve('done'))));
    await until(() => release !== undefined); // the first holds the lease and works
    expect(await lock.withLock('job', 5_000, async () => 'second')).toEqual({ acquired: false });
    expect(await lock.withLock('other-job', 5_000, async () => 'other')).toEqual({ acquired: true, result: 'other' });
    release!();
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
    let finishSlow: (() => void) | undefined;
    const slow = lock.withLock('job', 100, () => new Promise<void>((resolve) => (finishSlow = resolve)));
    await until(() => finishSlow !== undefined); // it holds the lease and works
    await new Promise((resolve) => setTimeout(resolve, 150)); // the lease ran out while the holder still works
    let finishNext: (() => void) | undefined;
    const next = lock.withLock('job', 5_000, () => new Promise<void>((resolve) => (finishNext = resolve)));
    await until(() => finishNext !== undefined); // the next holder took the expired lease
    finishSlow!();
    await slow;
    expect(await lock.withLock('job', 5_000, async () => 'intruder')).toEqual({ acquired: false });
    finishNext!();
    await next;
  });
});
