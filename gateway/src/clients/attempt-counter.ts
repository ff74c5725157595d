import type { RedisCache } from '@bo/platform/cache';

/** Counts events per key in a fixed window; shared by every replica when backed by Redis. */
export interface AttemptCounter {
  /** Adds one and returns the count in the current window. */
  hit(key: string, windowMs: number): Promise<number>;
  count(key: string): Promise<number>;
  reset(key: string): Promise<void>;
}

export class RedisAttemptCounter implements AttemptCounter {
  constructor(
    private readonly redis: RedisCache['redis'],
    private readonly prefix: string,
  ) {}

  async hit(key: string, windowMs: number): Promise<number> {
    const results = await this.redis.multi().incr(this.prefix + key).pexpire(this.prefix + key, windowMs, 'NX').exec();
    const [error, value] = results?.[0] ?? [new Error('Redis transaction aborted'), 0];
    if (error) throw error;
    return Number(value);
  }

  async count(key: string): Promise<number> {
    return Number((await this.redis.get(this.prefix + key)) ?? 0);
  }

  async reset(key: string): Promise<void> {
    await this.redis.del(this.prefix + key);
  }
}

/** Single-process stand-in for the embedded run. */
export class MemoryAttemptCounter implements AttemptCounter {
  private readonly windows = new Map<string, { count: number; until: number }>();

  async hit(key: string, windowMs: number): Promise<number> {
    const now = Date.now();
    const current = this.windows.get(key);
    const window = current && current.until > now ? current : { count: 0, until: now + windowMs };
    window.count += 1;
    this.windows.set(key, window);
    return window.count;
  }

  async count(key: string): Promise<number> {
    const window = this.windows.get(key);
    return window && window.until > Date.now() ? window.count : 0;
  }

  async reset(key: string): Promise<void> {
    this.windows.delete(key);
  }
}
