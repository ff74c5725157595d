import { Redis } from 'ioredis';
import type { Cache } from './cache';

/** Redis-backed cache; every key is prefixed so services (and test suites) never collide. */
export class RedisCache implements Cache {
  constructor(
    readonly redis: Redis,
    /** Every key of this cache starts with it (the service's name when distributed: its replicas share the keys). */
    readonly prefix: string,
  ) {}

  static connect(url: string, prefix: string): RedisCache {
    const redis = new Redis(url, { maxRetriesPerRequest: 2, enableOfflineQueue: true, lazyConnect: false });
    // Heard, so ioredis does not print each reconnect's failure as "Unhandled error event": a
    // command fails to its caller while Redis is away, and readiness reports the state once.
    redis.on('error', () => {});
    return new RedisCache(redis, prefix);
  }

  async get(key: string): Promise<string | null> {
    return this.redis.get(this.prefix + key);
  }

  async set(key: string, value: string, ttlSeconds: number): Promise<void> {
    await this.redis.set(this.prefix + key, value, 'EX', Math.max(1, Math.round(ttlSeconds)));
  }

  async delete(key: string): Promise<void> {
    await this.redis.del(this.prefix + key);
  }

  async ttl(key: string): Promise<number | null> {
    const seconds = await this.redis.ttl(this.prefix + key);
    return seconds < 0 ? null : seconds;
  }

  async ping(): Promise<void> {
    await this.redis.ping();
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }
}
