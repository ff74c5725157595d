import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateIdentityKeyPair, IDENTITY_MAX_AGE_MS, IdentitySigner, serviceIdentity } from '@bo/platform';
import { asService, signedBy, signerOf, testIdentityKeys } from '@bo/platform/testing/identity';
import { startKeysSystem, type KeysSystem } from './system';

// Issue 18 §3: one shared signing key let any service, ai-chat (which reads hostile e-mail)
// included, act as an admin towards every other. Each process now signs with its own key.
describe("streaming-keys trusts a person's identity only from the gateway, and a service's only from itself", () => {
  let it_: KeysSystem;
  let keyId: number;
  const admin = { kind: 'admin' as const, userId: '1', email: 'admin@example.com', isAdmin: true, keyId: null };
  const header = (value: string) => ({ 'x-internal-identity': value });

  beforeAll(async () => {
    it_ = await startKeysSystem('streaming_keys_identity', { payments: false });
    const made = await it_.call('POST', '/api/streaming-keys', { service: 'NFX', email: 'nfx.identity@example.mn', months: 1, password: 'Shared-Pass-2026' }, signedBy('gateway', admin));
    expect(made.status).toBe(200);
    keyId = made.body.data.keys[0].id;
  });
  afterAll(async () => {
    await it_?.stop();
  });

  const refusal = async (method: string, path: string, headers: Record<string, string>, body?: unknown) => {
    const reply = await it_.call(method, path, body, headers);
    return { status: reply.status, error: reply.body?.error };
  };

  it("refuses ai-chat's credentials on an admin route (403), whatever identity they claim; the gateway's admin still gets in", async () => {
    expect((await it_.call('GET', '/api/streaming-accounts', undefined, signedBy('gateway', admin))).status).toBe(200);
    expect(await refusal('GET', '/api/streaming-accounts', asService('ai-chat'))).toEqual({ status: 403, error: 'Admin access required' });
    expect(await refusal('GET', '/api/streaming-accounts', signedBy('ai-chat', admin))).toEqual({
      status: 403,
      error: "Identity refused: ai-chat may not state a person's identity (admin): only the gateway does",
    });
    // A write is refused before it does anything.
    const keysBefore = await it_.keys.prisma.streamingKey.count();
    expect((await refusal('POST', '/api/streaming-keys', signedBy('ai-chat', admin), { service: 'NFX', email: 'nfx.forged@example.mn', months: 1 })).status).toBe(403);
    expect(await it_.keys.prisma.streamingKey.count()).toBe(keysBefore);
  });

  it('refuses a service identity naming another service, and a service calling an internal route it is not a caller of', async () => {
    const delivery = `/internal/streaming-keys/keys/${keyId}/delivery`;
    expect((await it_.call('GET', delivery, undefined, asService('notifications'))).body).toMatchObject({ keyId, accountPassword: 'Shared-Pass-2026' });
    expect(await refusal('GET', delivery, signedBy('ai-chat', serviceIdentity('notifications')))).toEqual({
      status: 403,
      error: "Identity refused: ai-chat may state only its own identity, not notifications's",
    });
    expect(await refusal('GET', delivery, asService('ai-chat'))).toEqual({ status: 403, error: 'Internal route for notifications only, not ai-chat' });
  });

  it("refuses a customer's identity signed by a service: a key's codes are the gateway's to grant", async () => {
    const customer = { kind: 'customer' as const, userId: `customer:${keyId}`, email: 'nfx.identity@example.mn', isAdmin: false, keyId: String(keyId) };
    expect((await it_.call('GET', '/api/customer/keys', undefined, signedBy('gateway', customer))).status).toBe(200);
    expect((await refusal('GET', '/api/customer/keys', signedBy('ai-chat', customer))).status).toBe(403);
    expect((await refusal('GET', '/api/customer/keys', signedBy('payments', customer))).status).toBe(403);
  });

  it('refuses an unknown signer, a stolen name without its key, and a stale header', async () => {
    const stranger = new IdentitySigner('mallory', generateIdentityKeyPair().privateKey);
    expect(await refusal('GET', '/api/streaming-accounts', header(stranger.sign(admin)))).toEqual({
      status: 403,
      error: 'Identity refused: the identity header is signed by "mallory", which is not in IDENTITY_PUBLIC_KEYS',
    });
    // ai-chat's key under the gateway's name: the signature is not the gateway's.
    const impostor = new IdentitySigner('gateway', testIdentityKeys['ai-chat'].privateKey);
    expect(await refusal('GET', '/api/streaming-accounts', header(impostor.sign(admin)))).toEqual({ status: 403, error: "Identity refused: the identity header does not carry gateway's signature" });
    const stale = signerOf('gateway').signAt(admin, Date.now() - IDENTITY_MAX_AGE_MS - 5_000);
    expect(await refusal('GET', '/api/streaming-accounts', header(stale))).toEqual({ status: 403, error: 'Identity refused: the identity header is stale' });
    expect(await refusal('GET', '/api/streaming-accounts', {})).toEqual({ status: 401, error: 'Authentication required' });
  });
});
