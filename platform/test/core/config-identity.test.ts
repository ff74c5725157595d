import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  adminNameOf, ConfigError, generateIdentityKeyPair, IDENTITY_MAX_AGE_MS, IDENTITY_REUSE_MS, identityKeysOf, IdentitySigner, IdentityVerifier, loadConfig, parsePublicKeys, serviceEnvSchema, serviceIdentity,
} from '@bo/platform';
import { identityEnv, signerOf, TEST_IDENTITY_PUBLIC_KEYS, testIdentityKeys, testVerifier } from '@bo/platform/testing/identity';

describe('loadConfig', () => {
  it('names every missing or bad variable, one line each', () => {
    const schema = serviceEnvSchema.extend({ SHEET_ID: z.string().min(1) });
    let error: unknown;
    try {
      loadConfig(schema, { PORT: 'eighty', REDIS_URL: 'not a url' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const lines = (error as ConfigError).problems;
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^PORT is invalid/),
        expect.stringMatching(/^REDIS_URL is invalid/),
        expect.stringMatching(/^IDENTITY_PRIVATE_KEY is required/),
        expect.stringMatching(/^IDENTITY_PUBLIC_KEYS is required/),
        expect.stringMatching(/^SHEET_ID is required/),
      ]),
    );
    expect((error as ConfigError).message.split('\n')).toHaveLength(lines.length + 1);
  });

  it('reads empty strings as unset and applies defaults', () => {
    const config = loadConfig(serviceEnvSchema, { PORT: '5101', REDIS_URL: '', ...identityEnv('pricing') });
    expect(config).toMatchObject({ PORT: 5101, REDIS_URL: undefined, LOG_LEVEL: 'info', HOST: '0.0.0.0' });
  });
});

describe('identity keys in the environment', () => {
  it('refuses placeholders, made-up keys and a key list without the gateway, naming the variable', () => {
    const problems = (env: Record<string, string>) => {
      try {
        loadConfig(serviceEnvSchema, { PORT: '1', ...env });
        return [];
      } catch (error) {
        return (error as ConfigError).problems;
      }
    };
    expect(problems({ IDENTITY_PRIVATE_KEY: 'replace-with-this-process-s-identity-key', IDENTITY_PUBLIC_KEYS: 'gateway:replace-me' })).toEqual([
      expect.stringMatching(/^IDENTITY_PRIVATE_KEY is invalid: must be an Ed25519 private key/),
      expect.stringMatching(/^IDENTITY_PUBLIC_KEYS is invalid: gateway: an Ed25519 public key is 43 base64url characters/),
    ]);
    expect(problems({ IDENTITY_PRIVATE_KEY: 'x'.repeat(43), IDENTITY_PUBLIC_KEYS: `pricing:${testIdentityKeys.pricing.publicKey}` })).toEqual([
      expect.stringMatching(/^IDENTITY_PRIVATE_KEY is invalid: is a placeholder/),
      expect.stringMatching(/^IDENTITY_PUBLIC_KEYS is invalid: names no gateway key/),
    ]);
    expect(problems(identityEnv('pricing'))).toEqual([]);
  });

  it("stops a process whose private key is not its own entry in IDENTITY_PUBLIC_KEYS", () => {
    expect(() => identityKeysOf('pricing', identityEnv('pricing'))).not.toThrow();
    expect(() => identityKeysOf('pricing', { ...identityEnv('pricing'), IDENTITY_PRIVATE_KEY: testIdentityKeys.payments.privateKey })).toThrow("IDENTITY_PRIVATE_KEY is not pricing's key in IDENTITY_PUBLIC_KEYS");
    expect(() => identityKeysOf('newcomer', identityEnv('pricing'))).toThrow('IDENTITY_PUBLIC_KEYS has no key for newcomer');
  });
});

describe('signed identity', () => {
  const verifier = testVerifier();
  const admin = { kind: 'admin' as const, userId: '7', email: 'a@example.com', isAdmin: true, keyId: null };

  it("round-trips a person's identity the gateway signed, and a service's own", () => {
    expect(verifier.verify(signerOf('gateway').sign(admin))).toMatchObject(admin);
    expect(verifier.verify(signerOf('ai-chat').serviceHeader())).toMatchObject({ kind: 'service', userId: 'ai-chat', isAdmin: false });
    expect(verifier.verify(undefined)).toBeNull();
  });

  it('carries a password admin’s username, which records name them by (their e-mail or id otherwise)', () => {
    const local = { kind: 'admin' as const, userId: 'local:3f0c', email: null, name: 'ops', isAdmin: true, keyId: null };
    const gateway = signerOf('gateway');
    const verified = verifier.verify(gateway.sign(local));
    expect(verified).toMatchObject(local);
    expect(adminNameOf(verified)).toBe('ops');
    // The same person under another name is another header, not a reused one.
    expect(adminNameOf(verifier.verify(gateway.sign({ ...local, name: 'ops2' })))).toBe('ops2');
    expect(adminNameOf(verifier.verify(gateway.sign(admin)))).toBe('a@example.com');
    expect(adminNameOf(verifier.verify(gateway.sign({ ...local, name: undefined })))).toBe('local:3f0c');
  });

  it('refuses, saying why: a rewritten payload, garbage, a stale header, an unknown signer', () => {
    const header = signerOf('gateway').sign(admin);
    const [signer, , signature] = header.split('.');
    const rewritten = Buffer.from(JSON.stringify({ ...admin, userId: '8', iat: Date.now() })).toString('base64url');
    expect(verifier.check(`${signer}.${rewritten}.${signature}`).refused).toBe("the identity header does not carry gateway's signature");
    expect(verifier.check('not-a-header').refused).toBe('the identity header is malformed');
    expect(verifier.check(signerOf('gateway').signAt(admin, Date.now() - IDENTITY_MAX_AGE_MS - 1_000)).refused).toBe('the identity header is stale');
    const stranger = new IdentitySigner('mallory', generateIdentityKeyPair().privateKey);
    expect(verifier.check(stranger.sign(admin)).refused).toBe('the identity header is signed by "mallory", which is not in IDENTITY_PUBLIC_KEYS');
    // A known name with the wrong key: someone else's key pair claiming to be the gateway.
    const impostor = new IdentitySigner('gateway', testIdentityKeys['ai-chat'].privateKey);
    expect(verifier.check(impostor.sign(admin)).refused).toBe("the identity header does not carry gateway's signature");
  });

  it("takes a person's identity only from the gateway, and a service identity only naming its signer", () => {
    const aiChat = signerOf('ai-chat');
    expect(verifier.check(aiChat.sign(admin)).refused).toBe("ai-chat may not state a person's identity (admin): only the gateway does");
    expect(verifier.check(aiChat.sign({ ...admin, kind: 'customer', isAdmin: false })).refused).toMatch(/ai-chat may not state a person's identity \(customer\)/);
    expect(verifier.check(aiChat.sign({ ...admin, kind: 'anonymous', isAdmin: false })).refused).toMatch(/\(anonymous\)/);
    expect(verifier.check(aiChat.sign(serviceIdentity('streaming-keys'))).refused).toBe("ai-chat may state only its own identity, not streaming-keys's");
    expect(verifier.check(aiChat.sign({ ...serviceIdentity('ai-chat'), isAdmin: true })).refused).toBe("ai-chat's service identity claims more than a service");
    // The gateway cannot make a service say something either, nor an admin without admin rights.
    expect(verifier.check(signerOf('gateway').sign(serviceIdentity('payments'))).refused).toMatch(/gateway may state only its own identity/);
    expect(verifier.check(signerOf('gateway').sign({ ...admin, isAdmin: false })).refused).toBe('the identity header is malformed');
  });

  it("rotates a process's key without refusing a call: both keys listed while the new one rolls out", () => {
    const next = generateIdentityKeyPair();
    const during = `${TEST_IDENTITY_PUBLIC_KEYS},gateway:${next.publicKey}`;
    const rolling = new IdentityVerifier(parsePublicKeys(during));
    expect(rolling.verify(signerOf('gateway').sign(admin))).toMatchObject(admin);
    expect(rolling.verify(new IdentitySigner('gateway', next.privateKey).sign(admin))).toMatchObject(admin);
    expect(() => identityKeysOf('gateway', { IDENTITY_PRIVATE_KEY: next.privateKey, IDENTITY_PUBLIC_KEYS: during })).not.toThrow();
    // Once the old key is gone from the list, what it signs is refused.
    const after = TEST_IDENTITY_PUBLIC_KEYS.replace(`gateway:${testIdentityKeys.gateway.publicKey}`, `gateway:${next.publicKey}`);
    expect(new IdentityVerifier(parsePublicKeys(after)).check(signerOf('gateway').sign(admin)).refused).toBe("the identity header does not carry gateway's signature");
  });

  it('reuses a signed header per identity for part of its life, and a verified one until it expires', () => {
    const signer = new IdentitySigner('gateway', testIdentityKeys.gateway.privateKey);
    const now = Date.now();
    const first = signer.sign(admin, now);
    expect(signer.sign({ ...admin, iat: 1 } as never, now + IDENTITY_REUSE_MS - 1)).toBe(first);
    expect(signer.sign({ ...admin, email: 'b@example.com' }, now)).not.toBe(first);
    const renewed = signer.sign(admin, now + IDENTITY_REUSE_MS);
    expect(renewed).not.toBe(first);
    const own = new IdentityVerifier(parsePublicKeys(TEST_IDENTITY_PUBLIC_KEYS));
    expect(own.verify(first, now)).toMatchObject(admin);
    // The remembered verdict still expires: the same header is refused once it is stale.
    expect(own.check(first, now + IDENTITY_MAX_AGE_MS + 1).refused).toBe('the identity header is stale');
    expect(own.verify(renewed, now + IDENTITY_REUSE_MS)).toMatchObject(admin);
  });
});
