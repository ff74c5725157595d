import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';

/**
 * A lease that lets one replica do work alone (the hourly expiry check, a sheet refresh).
 * It is a lease, not a fence: work done under it must still be idempotent in the database.
 */
export interface Lock {
  /** Runs `work` if the lease was free and returns its result; returns `{ acquired: false }` otherwise. */
  withLock<T>(key: string, leaseMs: number, work: () => Promise<T>): Promise<{ acquired: true; result: T } | { acquired: false }>;
}

// Deletes the key only if it still holds our token, so a late finisher never frees someone else's lease.
const RELEASE_SCRIPT = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

export class RedisLock implements Lock {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  async withLock<T>(key: string, leaseMs: number, work: () => Promise<T>) {
    const token = randomUUID();
    const fullKey = `${this.prefix}lock:${key}`;
    const acquired = await this.redis.set(fullKey, token, 'PX', leaseMs, 'NX');
    if (acquired !== 'OK') return { acquired: false as const };
    try {
      return { acquired: true as const, result: await work() };
    } finally {
      await this.redis.eval(RELEASE_SCRIPT, 1, fullKey, token);
    }
  }
}

export class MemoryLock implements Lock {
  private readonly held = new Map<string, number>();

  async withLock<T>(key: string, leaseMs: number, work: () => Promise<T>) {
    const until = this.held.get(key);
    if (until !== undefined && until > Date.now()) return { acquired: false as const };
    this.held.set(key, Date.now() + leaseMs);
    try {
      return { acquired: true as const, result: await work() };
    } finally {
      this.held.delete(key);
    }
  }
}
