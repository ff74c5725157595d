import type { ServiceName } from '../routing-table';

export interface CachedResponse {
  statusCode: number;
  headers: Record<string, string | string[]>;
  body: Buffer;
}

const MAX_ENTRIES_PER_SERVICE = 500;
const MAX_BODY_BYTES = 1024 * 1024;

/**
 * Short-lived gateway memory copies of public GET answers (the price reads), so a hot read costs
 * no proxy hop. Correctness rests on invalidation: every state-changing request through the
 * gateway to a service bumps that service's generation and drops its entries; a read that began
 * before the bump cannot store what it fetched. Other gateway replicas and changes made outside
 * the gateway are bounded by the TTL.
 */
export class PublicReadCache {
  private readonly entries = new Map<ServiceName, Map<string, CachedResponse & { expiresAt: number }>>();
  private readonly generations = new Map<ServiceName, number>();

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  get(service: ServiceName, key: string): CachedResponse | null {
    const entry = this.entries.get(service)?.get(key);
    if (!entry) return null;
    if (entry.expiresAt <= this.now()) {
      this.entries.get(service)?.delete(key);
      return null;
    }
    return entry;
  }

  /** The live answer kept under `key` by any service (keys are request URLs, and one service owns each path). */
  lookup(key: string): CachedResponse | null {
    for (const service of this.entries.keys()) {
      const hit = this.get(service, key);
      if (hit) return hit;
    }
    return null;
  }

  generation(service: ServiceName): number {
    return this.generations.get(service) ?? 0;
  }

  /** Keeps a response fetched while `generation` was current, if nothing was written since and it may be shared. */
  put(service: ServiceName, key: string, generation: number, response: CachedResponse): void {
    if (this.ttlMs <= 0 || generation !== this.generation(service) || !isShareable(response)) return;
    let map = this.entries.get(service);
    if (!map) this.entries.set(service, (map = new Map()));
    if (map.size >= MAX_ENTRIES_PER_SERVICE) map.clear(); // many distinct query strings: start over rather than grow
    map.set(key, { ...response, expiresAt: this.now() + this.ttlMs });
  }

  invalidate(service: ServiceName): void {
    this.generations.set(service, this.generation(service) + 1);
    this.entries.get(service)?.clear();
  }
}

function isShareable({ statusCode, headers, body }: CachedResponse): boolean {
  const cacheControl = String(headers['cache-control'] ?? '');
  return (
    statusCode === 200 &&
    headers['set-cookie'] === undefined &&
    !/no-store|private/i.test(cacheControl) &&
    !String(headers['content-type'] ?? '').includes('text/event-stream') &&
    body.length <= MAX_BODY_BYTES
  );
}
