/**
 * What the signed identity header costs per request (issue 19 counts CPU per request):
 *   npx tsx bench/identity.ts
 * Ed25519 signing and verifying each on its own, then what the gateway and a service really do:
 * the gateway reuses a header per identity (IDENTITY_REUSE_MS), a service remembers verified
 * headers until they expire. The HMAC of the shared secret it replaced is shown for comparison.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { formatPublicKeys, generateIdentityKeyPair, IdentitySigner, IdentityVerifier, parsePublicKeys, type IdentityClaims } from '@bo/platform';

const ROUNDS = 20_000;
const gatewayKeys = generateIdentityKeyPair();
const signer = new IdentitySigner('gateway', gatewayKeys.privateKey);
const publicKeys = parsePublicKeys(formatPublicKeys({ gateway: gatewayKeys }));
const admin: IdentityClaims = { kind: 'admin', userId: '1', email: 'admin@example.com', isAdmin: true, keyId: null };

function perOp(label: string, run: (i: number) => unknown): void {
  for (let i = 0; i < 1_000; i++) run(i); // warm-up
  const started = process.hrtime.bigint();
  for (let i = 0; i < ROUNDS; i++) run(i);
  const us = Number(process.hrtime.bigint() - started) / 1_000 / ROUNDS;
  console.log(`${label.padEnd(58)} ${us.toFixed(2).padStart(8)} µs`);
}

const now = Date.now();
const fresh = Array.from({ length: ROUNDS + 1_000 }, (_, i) => signer.signAt({ ...admin, userId: String(i) }, now));
perOp('Ed25519 sign, a new header each time', (i) => signer.signAt(admin, now + i));
perOp('Ed25519 verify, a header never seen (fresh verifier cache)', (i) => new IdentityVerifier(publicKeys).verify(fresh[i], now));
const sign = new IdentitySigner('gateway', gatewayKeys.privateKey);
perOp('gateway: sign per forwarded request (same identity, reused)', () => sign.sign(admin, now));
const verifier = new IdentityVerifier(publicKeys);
const header = sign.sign(admin, now);
perOp('service: verify a header seen before (remembered)', () => verifier.verify(header, now));
// Many distinct identities: the bounded caches still hold them (10,000 entries).
const many = Array.from({ length: 1_000 }, (_, i) => ({ ...admin, userId: `user-${i}` }));
perOp('gateway + service, 1,000 identities in turn, cached', (i) => verifier.verify(sign.sign(many[i % many.length], now), now));

const secret = 'a-shared-secret-of-the-old-scheme-32-chars';
const hmac = (payload: string) => createHmac('sha256', secret).update(payload).digest();
perOp('for comparison: the old HMAC sign + verify', (i) => {
  const payload = Buffer.from(JSON.stringify({ ...admin, iat: now + i })).toString('base64url');
  const mac = hmac(payload);
  return timingSafeEqual(mac, hmac(payload));
});
