import type { Cache } from './cache';

export class MemoryCache implements Cache {
  private readonly entries = new Map<string, { value: string; expiresAt: number }>();

  async get(key: string): Promise<string | null> {
    const entry = this.live(key);
    return entry ? entry.value : null;
  }

  async set(key: string, value: string, ttlSeconds: number): Promise<void> {
    this.entries.set(key, { value, expiresAt: Date.now() + ttlSeconds * 1000 });
  }

  async delete(key: string): Promise<void> {
    this.entries.delete(key);
  }

  async ttl(key: string): Promise<number | null> {
    const entry = this.live(key);
    return entry ? Math.max(0, Math.ceil((entry.expiresAt - Date.now()) / 1000)) : null;
  }

  async ping(): Promise<void> {}

  async close(): Promise<void> {
    this.entries.clear();
  }

  private live(key: string) {
    const entry = this.entries.get(key);
    if (entry && entry.expiresAt <= Date.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }
}
