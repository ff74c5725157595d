import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';

/**
 * Who a request is for, as the gateway decided it. The gateway strips any incoming copy of the
 * header and sets a signed one; services refuse unsigned or stale ones on non-public routes.
 */
export const IDENTITY_HEADER = 'x-internal-identity';

export const identitySchema = z.object({
  /** `service`: the gateway calling a service's internal route on its own behalf. */
  kind: z.enum(['admin', 'user', 'customer', 'anonymous', 'service']),
  userId: z.string().nullable(),
  email: z.string().nullable(),
  isAdmin: z.boolean(),
  /** For customers: the key id their session is limited to, if any. */
  keyId: z.string().nullable().default(null),
  /** Issued-at, epoch milliseconds; bounds replay of a captured header. */
  iat: z.number().int(),
});
export type Identity = z.infer<typeof identitySchema>;

export const anonymousIdentity = (): Identity => ({ kind: 'anonymous', userId: null, email: null, isAdmin: false, keyId: null, iat: Date.now() });

/** The identity the gateway signs for its own calls to internal routes. */
export const serviceIdentity = (name: string): Identity => ({ kind: 'service', userId: name, email: null, isAdmin: false, keyId: null, iat: Date.now() });

const MAX_AGE_MS = 60_000;

function mac(secret: string, payload: string): Buffer {
  return createHmac('sha256', secret).update(payload).digest();
}

export function signIdentity(identity: Omit<Identity, 'iat'> & { iat?: number }, secret: string): string {
  const payload = Buffer.from(JSON.stringify({ ...identity, iat: identity.iat ?? Date.now() })).toString('base64url');
  return `${payload}.${mac(secret, payload).toString('base64url')}`;
}

/** The identity in a header value, or null when it is missing, forged, malformed or stale. */
export function verifyIdentity(header: string | undefined, secret: string, now = Date.now()): Identity | null {
  if (!header) return null;
  const [payload, signature] = header.split('.');
  if (!payload || !signature) return null;
  const expected = mac(secret, payload);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const identity = identitySchema.parse(JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')));
    return Math.abs(now - identity.iat) <= MAX_AGE_MS ? identity : null;
  } catch {
    return null;
  }
}
