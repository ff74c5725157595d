import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError, loadConfig, serviceEnvSchema, signIdentity, verifyIdentity } from '@bo/platform';

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
        expect.stringMatching(/^INTERNAL_IDENTITY_SECRET is required/),
        expect.stringMatching(/^SHEET_ID is required/),
      ]),
    );
    expect((error as ConfigError).message.split('\n')).toHaveLength(lines.length + 1);
  });

  it('reads empty strings as unset and applies defaults', () => {
    const config = loadConfig(serviceEnvSchema, { PORT: '5101', REDIS_URL: '', INTERNAL_IDENTITY_SECRET: 'x'.repeat(32) });
    expect(config).toMatchObject({ PORT: 5101, REDIS_URL: undefined, LOG_LEVEL: 'info', HOST: '0.0.0.0' });
  });
});

describe('signed identity', () => {
  const secret = 's'.repeat(40);
  const claims = { kind: 'admin' as const, userId: '7', email: 'a@example.com', isAdmin: true, keyId: null };

  it('round-trips what the gateway signed', () => {
    expect(verifyIdentity(signIdentity(claims, secret), secret)).toMatchObject(claims);
  });

  it('refuses a header signed with another secret, a rewritten payload, garbage and a stale one', () => {
    const header = signIdentity(claims, secret);
    expect(verifyIdentity(header, 'o'.repeat(40))).toBeNull();
    const [, signature] = header.split('.');
    const rewritten = Buffer.from(JSON.stringify({ ...claims, userId: '8', iat: Date.now() })).toString('base64url');
    expect(verifyIdentity(`${rewritten}.${signature}`, secret)).toBeNull();
    expect(verifyIdentity('not-a-header', secret)).toBeNull();
    expect(verifyIdentity(undefined, secret)).toBeNull();
    const old = signIdentity({ ...claims, iat: Date.now() - 5 * 60_000 }, secret);
    expect(verifyIdentity(old, secret)).toBeNull();
  });
});
