/** A string cache with TTLs: Redis when distributed, memory in the embedded single process. */
export interface Cache {
  get(key: string): Promise<string | null>;
  set(key: string, value: string, ttlSeconds: number): Promise<void>;
  delete(key: string): Promise<void>;
  /** Remaining lifetime in seconds, or null when the key is absent. */
  ttl(key: string): Promise<number | null>;
  /** Resolves when the backing store answers (readiness). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** Reads JSON from the cache; a corrupt entry counts as a miss rather than an error. */
export async function getJson<T>(cache: Cache, key: string): Promise<T | null> {
  const raw = await cache.get(key);
  if (raw === null) return null;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return null;
  }
}

export async function setJson(cache: Cache, key: string, value: unknown, ttlSeconds: number): Promise<void> {
  await cache.set(key, JSON.stringify(value), ttlSeconds);
}
