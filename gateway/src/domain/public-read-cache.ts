import type { ServiceName } from '../routing-table';

export interface CachedResponse {
  statusCode: number;
  headers: Record<string, string | string[]>;
  body: Buffer;
}

type Entry = CachedResponse & { expiresAt: number; refreshAt: number; refreshClaimed: boolean };

const MAX_ENTRIES_PER_SERVICE = 500;
const MAX_BODY_BYTES = 1024 * 1024;

/**
 * Short-lived gateway memory copies of public GET answers (the price reads), so a hot read costs
 * no proxy hop. Correctness rests on invalidation: every state-changing request through the
 * gateway to a service bumps that service's generation and drops its entries; a read that began
 * before the bump cannot store what it fetched. Other gateway replicas and changes made outside
 * the gateway are bounded by the TTL.
 *
 * Refresh ahead: once an entry is half its TTL old, the next read through `get` fetches a fresh
 * copy while every other read keeps getting the kept one, so under steady traffic no read waits
 * for the service when an entry would expire (and none gets an answer older than the TTL).
 */
export class PublicReadCache {
  private readonly entries = new Map<ServiceName, Map<string, Entry>>();
  private readonly generations = new Map<ServiceName, number>();

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** The kept answer, or null: none, expired, or this caller is the one to fetch the refresh. */
  get(service: ServiceName, key: string): CachedResponse | null {
    const entry = this.entries.get(service)?.get(key);
    if (!entry) return null;
    const now = this.now();
    if (entry.expiresAt <= now) {
      this.entries.get(service)?.delete(key);
      return null;
    }
    if (!entry.refreshClaimed && entry.refreshAt <= now) {
      entry.refreshClaimed = true;
      return null;
    }
    return entry;
  }

  /**
   * The kept answer under `key` for any service (keys are request URLs, one service owns each path),
   * for reads answered before the full request path. Null when a refresh is due and unclaimed: that
   * read goes the full path, whose `get` claims it.
   */
  lookup(key: string): CachedResponse | null {
    const now = this.now();
    for (const map of this.entries.values()) {
      const entry = map.get(key);
      if (entry && now < entry.expiresAt && (entry.refreshClaimed || now < entry.refreshAt)) return entry;
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
    const now = this.now();
    map.set(key, { ...response, expiresAt: now + this.ttlMs, refreshAt: now + this.ttlMs / 2, refreshClaimed: false });
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
