import type { Adapter, AdapterPayload } from 'oidc-provider';

interface Stored {
  payload: AdapterPayload;
  expiresAt: number | null;
}

/**
 * Where the sign-in simulator keeps its sessions, grants and codes: this process's memory, on
 * purpose (it is a development stand-in; a restart signs people out of the simulator only, never
 * out of the back-office). Said here, and in the launcher's banner, instead of oidc-provider's
 * start-up warning about its own quick-start adapter.
 */
export function simulatorMemoryAdapter() {
  // One store per provider: oidc-provider makes an adapter object per model (Session, Grant, …).
  const store = new Map<string, Stored>();
  return class SimulatorMemoryAdapter implements Adapter {
    constructor(private readonly model: string) {}

    private key(id: string): string {
      return `${this.model}:${id}`;
    }

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      store.set(this.key(id), { payload, expiresAt: expiresIn ? Date.now() + expiresIn * 1000 : null });
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      return live(store.get(this.key(id)));
    }

    async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      return this.findWhere((payload) => payload.userCode === userCode);
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      return this.findWhere((payload) => payload.uid === uid);
    }

    async consume(id: string): Promise<void> {
      const entry = store.get(this.key(id));
      if (entry) entry.payload = { ...entry.payload, consumed: Math.floor(Date.now() / 1000) };
    }

    async destroy(id: string): Promise<void> {
      store.delete(this.key(id));
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      for (const [key, entry] of store) if (entry.payload.grantId === grantId) store.delete(key);
    }

    private findWhere(matches: (payload: AdapterPayload) => boolean): AdapterPayload | undefined {
      for (const [key, entry] of store) {
        if (key.startsWith(`${this.model}:`) && matches(entry.payload)) return live(entry);
      }
      return undefined;
    }
  };
}

function live(entry: Stored | undefined): AdapterPayload | undefined {
  if (!entry) return undefined;
  if (entry.expiresAt !== null && entry.expiresAt <= Date.now()) return undefined;
  return entry.payload;
}
