import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { MemoryOutsideRateLimit, RedisOutsideRateLimit, type OutsideRateLimit } from '../../src/outside';

const connections = [new Redis('redis://127.0.0.1:6379'), new Redis('redis://127.0.0.1:6379')];
afterAll(async () => {
  for (const redis of connections) await redis.quit();
});

/**
 * Takes `count` slots from each limit at once, as callers in separate processes would: each
 * call's wait, smallest first, and how long all the takes took (each wait counts from the moment
 * its own take was served, somewhere in that span).
 */
async function takeAtOnce(limits: OutsideRateLimit[], key: string, perSecond: number, count: number): Promise<{ waits: number[]; spanMs: number }> {
  const started = performance.now();
  const waits = await Promise.all(limits.flatMap((limit) => Array.from({ length: count }, async () => (await limit.take(key, { perSecond, burst: 1 }, 60_000))!)));
  return { waits: waits.sort((a, b) => a - b), spanMs: performance.now() - started };
}

describe.each([
  ['two Redis connections (two processes)', () => connections.map((redis) => new RedisOutsideRateLimit(redis))],
  ['one process, two services (the embedded run)', () => { const shared = new MemoryOutsideRateLimit(); return [shared, shared]; }],
])('outside rate limit: %s', (_name, makeLimits) => {
  it('spaces the calls of both 1/rate apart, the first at once', async () => {
    const key = `test:${randomUUID()}`;
    const { waits, spanMs } = await takeAtOnce(makeLimits(), key, 25, 30);
    expect(waits).toHaveLength(60);
    expect(waits[0]).toBe(0);
    // The slots are 40 ms apart; each wait counts from when its take was served, within spanMs of the others.
    waits.forEach((wait, n) => {
      expect(wait).toBeGreaterThanOrEqual(n * 40 - spanMs - 1);
      expect(wait).toBeLessThanOrEqual(n * 40 + spanMs + 1);
    });
  });

  it('keeps accounts apart, and takes no slot further away than the caller will wait', async () => {
    const [limit] = makeLimits();
    const busy = `test:${randomUUID()}`;
    // 20 slots at 1 a second: the next free one is 20 s after the first take, served after `booked`.
    const booked = performance.now();
    await takeAtOnce([limit], busy, 1, 20);
    const once = { perSecond: 1, burst: 1 };
    expect(await limit.take(`test:${randomUUID()}`, once, 0)).toBe(0);
    // Refused without taking it (so it is still there to take): a second's wait is not enough.
    expect(await limit.take(busy, once, 1_000)).toBeNull();
    const asked = performance.now();
    const wait = await limit.take(busy, once, 60_000);
    // The free slot: 20 s after the first take, which was served after `booked`.
    expect(wait).toBeGreaterThanOrEqual(20_000 - (performance.now() - booked) - 1);
    expect(wait).toBeLessThanOrEqual(20_000 + 1);
    // The next slot is 1 s after that one; its wait counts from when it was served, later by at most the time both took.
    const next = await limit.take(busy, once, 60_000);
    const both = performance.now() - asked;
    expect(next).toBeLessThanOrEqual(wait! + 1_000 + 1);
    expect(next).toBeGreaterThanOrEqual(wait! + 1_000 - both - 1);
  });

  it('lets a burst start at once, then paces the rest: at most burst + rate × T in any T seconds', async () => {
    const [limit] = makeLimits();
    const key = `test:${randomUUID()}`;
    const rate = { perSecond: 20, burst: 5 };
    // Each wait counts from when its take was served, somewhere between the call and its answer
    // (far apart on a loaded machine): a slot is at most its wait plus the answer's time.
    const takes: { wait: number; asked: number; answered: number }[] = [];
    const started = performance.now();
    for (let n = 0; n < 9; n++) {
      const asked = performance.now() - started;
      const wait = (await limit.take(key, rate, 10_000))!;
      takes.push({ wait, asked, answered: performance.now() - started });
    }
    expect(takes.slice(0, 5).every((take) => take.wait <= 2)).toBe(true);
    // The sixth waits for the first slot after the burst: 50 ms after the first take, then one every 50 ms.
    expect(takes[5].wait + takes[5].answered).toBeGreaterThanOrEqual(49);
    expect(takes[8].wait + takes[8].answered - (takes[5].wait + takes[5].asked)).toBeGreaterThanOrEqual(145);
  });
});
