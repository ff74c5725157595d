import { serviceNames, type ServiceName } from '@bo/proto';
import { formatPublicKeys, generateIdentityKeyPair, IdentitySigner, IdentityVerifier, parsePublicKeys, serviceIdentity, type IdentityClaims, type IdentityKeyPair } from '../identity';

/**
 * Every process's identity key pair, made when a test file first loads this module: vitest gives
 * each test file its own modules, so each suite has keys of its own, and a test system, a gateway
 * harness and the test's own signed requests in one file agree on them.
 */
export const testIdentityKeys = Object.fromEntries(serviceNames.map((name) => [name, generateIdentityKeyPair()])) as Record<ServiceName, IdentityKeyPair>;
export const TEST_IDENTITY_PUBLIC_KEYS = formatPublicKeys(testIdentityKeys);

/** The identity settings of process `name` in this suite. */
export const identityEnv = (name: ServiceName) => ({ IDENTITY_PRIVATE_KEY: testIdentityKeys[name].privateKey, IDENTITY_PUBLIC_KEYS: TEST_IDENTITY_PUBLIC_KEYS });

const signers = new Map<ServiceName, IdentitySigner>();
/** Signs as process `name` would (its private key of this suite). */
export function signerOf(name: ServiceName): IdentitySigner {
  let signer = signers.get(name);
  if (!signer) signers.set(name, (signer = new IdentitySigner(name, testIdentityKeys[name].privateKey)));
  return signer;
}

/** Checks headers as any service of this suite does (e.g. what the gateway forwarded). */
export const testVerifier = () => new IdentityVerifier(parsePublicKeys(TEST_IDENTITY_PUBLIC_KEYS));

/** Headers of a request as process `signer` sends them for `claims`; read afresh each time (a signature is short-lived). */
export function signedBy(signer: ServiceName, claims: IdentityClaims): Record<string, string> {
  return {
    get 'x-internal-identity'() {
      return signerOf(signer).sign(claims);
    },
  };
}

/** Headers of process `name` calling another service's internal route on its own behalf. */
export const asService = (name: ServiceName) => signedBy(name, serviceIdentity(name));
