import type { Redis } from 'ioredis';

/**
 * Paces the calls to one outside system and account (ManyChat's page, Sheets' service account)
 * across every process that calls it: after a burst of `burst` calls at once, each call takes the
 * next free slot, `1000 / perSecond` ms after the one before, and waits for it. In any window of
 * T seconds at most `burst + perSecond × T` calls start. A limit kept per process lets N replicas
 * send N times the rate; this one is kept where they all see it.
 */
export interface OutsideRateLimit {
  /**
   * Takes the next slot when it is at most `maxWaitMs` away and says how long to wait for it, in
   * ms (0: now); null when the next one is further (nothing is taken: the caller tries later).
   */
  take(key: string, rate: { perSecond: number; burst: number }, maxWaitMs: number): Promise<number | null>;
}

// The generic cell rate algorithm: the key holds the theoretical time of the next slot (Redis' own
// clock, so processes on different machines agree); a call may start `tolerance` (the burst) before
// it. A start in the past is now; one too far ahead is not taken (-1); the key outlives the last
// slot by a second.
const TAKE_SCRIPT = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + tonumber(time[2]) / 1000
local interval = tonumber(ARGV[1])
local free = tonumber(redis.call('GET', KEYS[1]) or '0')
if free < now then free = now end
local start = free - tonumber(ARGV[3])
if start < now then start = now end
if start - now > tonumber(ARGV[2]) then return '-1' end
redis.call('SET', KEYS[1], tostring(free + interval), 'PX', math.ceil(free + interval - now) + 1000)
return tostring(start - now)`;

/** Redis keys of the outside limits: not a service's prefix, since every service calling one system shares them. */
const KEY_PREFIX = 'outside-limit:';

export class RedisOutsideRateLimit implements OutsideRateLimit {
  constructor(private readonly redis: Redis) {}

  async take(key: string, { perSecond, burst }: { perSecond: number; burst: number }, maxWaitMs: number): Promise<number | null> {
    const interval = 1000 / perSecond;
    const wait = Number(await this.redis.eval(TAKE_SCRIPT, 1, KEY_PREFIX + key, String(interval), String(maxWaitMs), String((burst - 1) * interval)));
    return wait < 0 ? null : wait;
  }
}

/** The embedded run's: one process holds every service, so its memory is the shared place. */
export class MemoryOutsideRateLimit implements OutsideRateLimit {
  private readonly nextFree = new Map<string, number>();

  async take(key: string, { perSecond, burst }: { perSecond: number; burst: number }, maxWaitMs: number): Promise<number | null> {
    const interval = 1000 / perSecond;
    const now = performance.timeOrigin + performance.now();
    const free = Math.max(now, this.nextFree.get(key) ?? 0);
    const start = Math.max(now, free - (burst - 1) * interval);
    if (start - now > maxWaitMs) return null;
    this.nextFree.set(key, free + interval);
    return start - now;
  }
}

/** The one memory limit of this process (every embedded service shares it). */
export const processOutsideRateLimit = new MemoryOutsideRateLimit();
