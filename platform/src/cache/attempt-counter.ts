import type { Cache } from './cache';
import { RedisCache } from './redis-cache';

/** One counter and its ceiling within the window. */
export interface Limit {
  key: string;
  max: number;
}

/**
 * Counts attempts per key in a fixed window (sign-in failures, webhook calls per address): shared by
 * every replica when backed by Redis, so a limit holds however many processes serve the door.
 */
export interface AttemptCounter {
  /**
   * Atomically: when every counter is below its ceiling, adds one to each and returns true;
   * otherwise changes nothing and returns false. Parallel callers can never overshoot a ceiling,
   * and a refused attempt is not counted against the other keys.
   */
  reserve(limits: Limit[], windowMs: number): Promise<boolean>;
  /** Gives back one reserved attempt on each key (the attempt turned out to be a success). */
  release(keys: string[]): Promise<void>;
  reset(key: string): Promise<void>;
}

// KEYS: the counters; ARGV: the window in ms, then each key's ceiling.
const RESERVE_SCRIPT = `
for i, key in ipairs(KEYS) do
  if tonumber(redis.call('GET', key) or '0') >= tonumber(ARGV[i + 1]) then return 0 end
end
for _, key in ipairs(KEYS) do
  redis.call('INCR', key)
  redis.call('PEXPIRE', key, ARGV[1], 'NX')
end
return 1`;

const RELEASE_SCRIPT = `
for _, key in ipairs(KEYS) do
  if tonumber(redis.call('GET', key) or '0') > 0 then redis.call('DECR', key) end
end
return 1`;

export class RedisAttemptCounter implements AttemptCounter {
  constructor(
    private readonly redis: RedisCache['redis'],
    private readonly prefix: string,
  ) {}

  async reserve(limits: Limit[], windowMs: number): Promise<boolean> {
    const keys = limits.map((limit) => this.prefix + limit.key);
    const granted = await this.redis.eval(RESERVE_SCRIPT, keys.length, ...keys, windowMs, ...limits.map((limit) => limit.max));
    return Number(granted) === 1;
  }

  async release(keys: string[]): Promise<void> {
    await this.redis.eval(RELEASE_SCRIPT, keys.length, ...keys.map((key) => this.prefix + key));
  }

  async reset(key: string): Promise<void> {
    await this.redis.del(this.prefix + key);
  }
}

/** Single-process stand-in for the embedded run (one event loop: check-and-add cannot interleave). */
export class MemoryAttemptCounter implements AttemptCounter {
  private readonly windows = new Map<string, { count: number; until: number }>();

  private current(key: string, windowMs: number) {
    const now = Date.now();
    const window = this.windows.get(key);
    if (window && window.until > now) return window;
    const fresh = { count: 0, until: now + windowMs };
    this.windows.set(key, fresh);
    return fresh;
  }

  async reserve(limits: Limit[], windowMs: number): Promise<boolean> {
    const windows = limits.map((limit) => ({ window: this.current(limit.key, windowMs), max: limit.max }));
    if (windows.some(({ window, max }) => window.count >= max)) return false;
    for (const { window } of windows) window.count += 1;
    return true;
  }

  async release(keys: string[]): Promise<void> {
    for (const key of keys) {
      const window = this.windows.get(key);
      if (window && window.count > 0) window.count -= 1;
    }
  }

  async reset(key: string): Promise<void> {
    this.windows.delete(key);
  }
}

/**
 * The counter that goes with a process's cache, in the cache's own key space: Redis when
 * distributed, shared by the replicas of one service (the service's name is the cache's prefix) and
 * apart from every other process and test system; memory in the embedded run's single process.
 */
export function attemptCounterFor(cache: Cache, prefix: string): AttemptCounter {
  return cache instanceof RedisCache ? new RedisAttemptCounter(cache.redis, cache.prefix + prefix) : new MemoryAttemptCounter();
}
