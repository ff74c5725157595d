import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '@bo/platform';
import { RedisCache, RedisLock, type Lock } from '@bo/platform/cache';
import { scheduleExpiryCheck } from '../src/operations/expiry-schedule';

const counts = { checked: 0, sent: 0, failed: 0, optedOut: 0, skipped: 0 };

describe('the expiry check schedule', () => {
  const cache = RedisCache.connect('redis://127.0.0.1:6379', `test:expiry-schedule:${randomUUID()}:`);
  afterAll(() => cache.close());

  it('runs each cron turn on one of two replicas sharing the lock, and stop waits for a run in flight', async () => {
    const lock = new RedisLock(cache.redis, '');
    let turns = 0;
    const counting: Lock = { withLock: (key, leaseMs, work) => (turns++, lock.withLock(key, leaseMs, work)) };
    const runs: { replica: number; second: number }[] = [];
    let inFlight = 0;
    const replica = (id: number) =>
      scheduleExpiryCheck({
        expression: '* * * * * *', // every second
        lock: counting,
        logger: createLogger('expiry-schedule-test', 'silent'),
        run: async () => {
          inFlight++;
          runs.push({ replica: id, second: Math.floor(Date.now() / 1000) });
          await new Promise((resolve) => setTimeout(resolve, 400));
          inFlight--;
          return counts;
        },
      });
    const replicas = [replica(1), replica(2)];
    await new Promise((resolve) => setTimeout(resolve, 3_300));
    await Promise.all(replicas.map((schedule) => schedule.stop()));
    expect(inFlight).toBe(0);
    const seconds = runs.map((run) => run.second);
    expect(runs.length).toBeGreaterThanOrEqual(2);
    expect(new Set(seconds).size).toBe(seconds.length); // never two runs in one turn
    expect(turns).toBeGreaterThanOrEqual(2 * runs.length - 1); // both replicas tried every turn
    const afterStop = runs.length;
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect(runs).toHaveLength(afterStop);
  });
});
