import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import { z } from 'zod';

/**
 * Who a request is for. The gateway strips any incoming copy of the header and sets one signed
 * with its own key; a service calling another signs its own service identity with its key.
 * Services refuse unsigned, foreign or stale ones on non-public routes.
 */
export const IDENTITY_HEADER = 'x-internal-identity';

/** The only process that may state a person's identity (admin, user, customer, anonymous). */
export const GATEWAY_SIGNER = 'gateway';

export const identitySchema = z.object({
  /** `service`: a process calling another's internal route on its own behalf (userId is its name). */
  kind: z.enum(['admin', 'user', 'customer', 'anonymous', 'service']),
  userId: z.string().nullable(),
  email: z.string().nullable(),
  /** How records name the person when not by e-mail: a password admin's username (as it was when they signed in). */
  name: z.string().optional(),
  isAdmin: z.boolean(),
  /** For customers: the key id their session is limited to, if any. */
  keyId: z.string().nullable().default(null),
  /** Issued-at, epoch milliseconds; bounds replay of a captured header. */
  iat: z.number().int(),
});
export type Identity = z.infer<typeof identitySchema>;
export type IdentityClaims = Omit<Identity, 'iat'>;

/** The person a record names as having done something (approved, paused, saved): their username or e-mail, else their id. */
export const adminNameOf = (identity: Identity | null): string => identity?.name ?? identity?.email ?? identity?.userId ?? 'admin';

export const anonymousIdentity = (): Identity => ({ kind: 'anonymous', userId: null, email: null, isAdmin: false, keyId: null, iat: Date.now() });

/** The identity a process signs for its own calls to internal routes. */
export const serviceIdentity = (name: string): Identity => ({ kind: 'service', userId: name, email: null, isAdmin: false, keyId: null, iat: Date.now() });

/** How long a signed header is accepted (either side of the verifier's clock). */
export const IDENTITY_MAX_AGE_MS = 60_000;
/** A signer reuses the header it made for an identity this long, then signs afresh: well within the max age. */
export const IDENTITY_REUSE_MS = 20_000;
/** Identities a signer keeps a header for, and verified headers a verifier remembers (both bounded). */
const CACHE_MAX = 10_000;

// Ed25519 keys travel as their raw 32 bytes in base64url (43 characters); node:crypto wants DER.
const PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/** Whether `text` has the form of a key (43 base64url characters, 32 bytes). */
export const isIdentityKeyText = (text: string) => rawKey(text) !== null;

function rawKey(text: string): Buffer | null {
  if (!/^[A-Za-z0-9_-]{43}$/.test(text)) return null;
  const raw = Buffer.from(text, 'base64url');
  return raw.length === 32 ? raw : null;
}

export function privateKeyOf(text: string): KeyObject {
  const raw = rawKey(text);
  if (!raw) throw new Error('an Ed25519 private key is 43 base64url characters');
  return createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, raw]), format: 'der', type: 'pkcs8' });
}

export function publicKeyOf(text: string): KeyObject {
  const raw = rawKey(text);
  if (!raw) throw new Error('an Ed25519 public key is 43 base64url characters');
  return createPublicKey({ key: Buffer.concat([SPKI_PREFIX, raw]), format: 'der', type: 'spki' });
}

/** The public half of a private key, as IDENTITY_PUBLIC_KEYS lists it. */
export function publicKeyTextOf(privateKey: string): string {
  return createPublicKey(privateKeyOf(privateKey)).export({ format: 'der', type: 'spki' }).subarray(SPKI_PREFIX.length).toString('base64url');
}

export interface IdentityKeyPair {
  privateKey: string;
  publicKey: string;
}

/** A fresh key pair for one process (launchers, test systems, `make identity-keys`). */
export function generateIdentityKeyPair(): IdentityKeyPair {
  const { privateKey } = generateKeyPairSync('ed25519');
  const text = privateKey.export({ format: 'der', type: 'pkcs8' }).subarray(PKCS8_PREFIX.length).toString('base64url');
  return { privateKey: text, publicKey: publicKeyTextOf(text) };
}

/** `name:<public key>,…`, the form of IDENTITY_PUBLIC_KEYS. */
export function formatPublicKeys(pairs: Record<string, Pick<IdentityKeyPair, 'publicKey'>>): string {
  return Object.entries(pairs).map(([name, pair]) => `${name}:${pair.publicKey}`).join(',');
}

/**
 * The public keys of IDENTITY_PUBLIC_KEYS by process name; throws naming the first bad entry. A
 * name may be listed twice while its key changes (the new key listed everywhere before its
 * process signs with it), so keys rotate without a moment where calls are refused.
 */
export function parsePublicKeys(text: string): Map<string, KeyObject[]> {
  const keys = new Map<string, KeyObject[]>();
  for (const entry of text.split(',').map((part) => part.trim()).filter(Boolean)) {
    const match = /^([a-z][a-z0-9-]*):(.+)$/.exec(entry);
    if (!match) throw new Error(`"${entry.slice(0, 20)}…" is not name:<key>`);
    try {
      keys.set(match[1], [...(keys.get(match[1]) ?? []), publicKeyOf(match[2])]);
    } catch (error) {
      throw new Error(`${match[1]}: ${(error as Error).message}`, { cause: error });
    }
  }
  if (!keys.has(GATEWAY_SIGNER)) throw new Error(`names no ${GATEWAY_SIGNER} key (every process needs it to verify people's identities)`);
  return keys;
}

/** A small LRU: a Map keeps insertion order, so re-inserting on use and dropping the first entry evicts the least recent. */
class Lru<V> {
  private readonly map = new Map<string, V>();
  constructor(private readonly max: number) {}
  get(key: string): V | undefined {
    const value = this.map.get(key);
    if (value !== undefined) {
      this.map.delete(key);
      this.map.set(key, value);
    }
    return value;
  }
  set(key: string, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.max) this.map.delete(this.map.keys().next().value!);
  }
  delete(key: string): void {
    this.map.delete(key);
  }
}

/**
 * Signs identity headers with this process's private key: `<signer>.<payload>.<signature>`, the
 * signature over `<signer>.<payload>`. A header is reused per identity for IDENTITY_REUSE_MS (the
 * gateway signs one per forwarded request; most requests repeat an identity).
 */
export class IdentitySigner {
  private readonly key: KeyObject;
  private readonly made = new Lru<{ header: string; until: number }>(CACHE_MAX);

  constructor(
    /** This process's name in IDENTITY_PUBLIC_KEYS. */
    readonly name: string,
    privateKey: string,
  ) {
    this.key = privateKeyOf(privateKey);
  }

  /** The header for `claims` (any `iat` given is ignored: the signer dates it). */
  sign(claims: IdentityClaims, now = Date.now()): string {
    const { kind, userId, email, name, isAdmin, keyId } = claims;
    const cacheKey = JSON.stringify([kind, userId, email, name, isAdmin, keyId]);
    const kept = this.made.get(cacheKey);
    if (kept && kept.until > now) return kept.header;
    const header = this.signAt({ kind, userId, email, ...(name === undefined ? {} : { name }), isAdmin, keyId }, now);
    this.made.set(cacheKey, { header, until: now + IDENTITY_REUSE_MS });
    return header;
  }

  /** A header dated `iat`, never reused (tests of stale headers; `sign` for everything else). */
  signAt(claims: IdentityClaims, iat: number): string {
    const payload = Buffer.from(JSON.stringify({ ...claims, iat })).toString('base64url');
    const signed = `${this.name}.${payload}`;
    return `${signed}.${sign(null, Buffer.from(signed), this.key).toString('base64url')}`;
  }

  /** This process's own service identity, for its calls to other services' internal routes. */
  serviceHeader(): string {
    return this.sign(serviceIdentity(this.name));
  }
}

/** A header's verdict: no header at all, the identity it proves, or why it was refused. */
export type IdentityVerdict = { identity: null; refused: null } | { identity: Identity; refused: null } | { identity: null; refused: string };

/**
 * Checks identity headers against every process's public key, and who may state what: a person's
 * identity only from the gateway, a service identity only naming its signer. Verified headers
 * are remembered until they expire (bounded), so a repeated header costs a lookup.
 */
export class IdentityVerifier {
  private readonly seen = new Lru<Identity>(CACHE_MAX);

  constructor(private readonly publicKeys: ReadonlyMap<string, readonly KeyObject[]>) {}

  check(header: string | undefined, now = Date.now()): IdentityVerdict {
    if (!header) return { identity: null, refused: null };
    const known = this.seen.get(header);
    if (known) {
      if (Math.abs(now - known.iat) <= IDENTITY_MAX_AGE_MS) return { identity: known, refused: null };
      this.seen.delete(header);
      return { identity: null, refused: 'the identity header is stale' };
    }
    const refused = (reason: string): IdentityVerdict => ({ identity: null, refused: reason });
    const parts = header.split('.');
    if (parts.length !== 3) return refused('the identity header is malformed');
    const [signer, payload, signature] = parts;
    const keys = this.publicKeys.get(signer);
    if (!keys) return refused(`the identity header is signed by "${signer.slice(0, 40)}", which is not in IDENTITY_PUBLIC_KEYS`);
    const signed = Buffer.from(`${signer}.${payload}`);
    const given = Buffer.from(signature, 'base64url');
    if (!keys.some((key) => verify(null, signed, key, given))) return refused(`the identity header does not carry ${signer}'s signature`);
    let identity: Identity;
    try {
      identity = Object.freeze(identitySchema.parse(JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'))));
    } catch {
      return refused('the identity header is malformed');
    }
    if (Math.abs(now - identity.iat) > IDENTITY_MAX_AGE_MS) return refused('the identity header is stale');
    if (identity.kind === 'service') {
      if (identity.userId !== signer) return refused(`${signer} may state only its own identity, not ${identity.userId ?? 'nobody'}'s`);
      if (identity.isAdmin || identity.email !== null || identity.keyId !== null) return refused(`${signer}'s service identity claims more than a service`);
    } else {
      if (signer !== GATEWAY_SIGNER) return refused(`${signer} may not state a person's identity (${identity.kind}): only the gateway does`);
      if (identity.isAdmin !== (identity.kind === 'admin')) return refused('the identity header is malformed');
    }
    this.seen.set(header, identity);
    return { identity, refused: null };
  }

  /** The identity a header proves, or null (missing or refused). */
  verify(header: string | undefined, now = Date.now()): Identity | null {
    return this.check(header, now).identity;
  }
}

/** What a process signs and verifies with, from IDENTITY_PRIVATE_KEY and IDENTITY_PUBLIC_KEYS. */
export interface IdentityKeys {
  signer: IdentitySigner;
  verifier: IdentityVerifier;
}

/**
 * The signer and verifier of process `name`. Refuses to start when its private key is not the
 * one IDENTITY_PUBLIC_KEYS lists for it: every other process would refuse its calls.
 */
export function identityKeysOf(name: string, config: { IDENTITY_PRIVATE_KEY: string; IDENTITY_PUBLIC_KEYS: string }): IdentityKeys {
  const publicKeys = parsePublicKeys(config.IDENTITY_PUBLIC_KEYS);
  const listed = publicKeys.get(name);
  if (!listed) throw new Error(`IDENTITY_PUBLIC_KEYS has no key for ${name}: the other processes would refuse its calls`);
  const own = publicKeyTextOf(config.IDENTITY_PRIVATE_KEY);
  if (!listed.some((key) => key.export({ format: 'der', type: 'spki' }).subarray(SPKI_PREFIX.length).toString('base64url') === own)) {
    throw new Error(`IDENTITY_PRIVATE_KEY is not ${name}'s key in IDENTITY_PUBLIC_KEYS (its public key is ${own})`);
  }
  return { signer: new IdentitySigner(name, config.IDENTITY_PRIVATE_KEY), verifier: new IdentityVerifier(publicKeys) };
}
