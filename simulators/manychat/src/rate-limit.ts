/** Per-key requests-per-second counter over a sliding one-second window. */
export class PerSecondLimiter {
  private hits = new Map<string, number[]>();

  /** Counts the request and says whether it stays within `limit` for the last second. */
  allow(key: string, limit: number, now: number): boolean {
    const recent = (this.hits.get(key) ?? []).filter((t) => now - t < 1000);
    const allowed = recent.length < limit;
    if (allowed) recent.push(now);
    this.hits.set(key, recent);
    return allowed;
  }

  clear(): void {
    this.hits.clear();
  }
}
