import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { formatPublicKeys, generateIdentityKeyPair, IdentitySigner, secretSetting, type IdentityKeyPair } from '@bo/platform';
import { serviceNames, type ServiceName } from '@bo/proto';

export interface EmbeddedSecrets {
  sessionSecret: string;
  oidcClientSecret: string;
  /** Seals secrets services keep in their tables (QPay's client secret, streaming accounts' passwords). */
  dataEncryptionKey: string;
  /** The keys it replaced (`make rotate-data-key`): they only open values sealed before. */
  dataEncryptionOldKeys: string[];
  /** Each process's identity key pair: it signs its calls with the private key, every process knows all public keys. */
  identityKeys: Record<ServiceName, IdentityKeyPair>;
  /** The chat webhook's X-Webhook-Secret a fresh database starts with (payments keeps it sealed; Rotate on /qpay replaces it). */
  qpayWebhookSecret: string;
}

/** 32 random bytes as text, drawn again in the rare case a draw reads like a placeholder (secretSetting refuses it). */
export function randomSecret(): string {
  for (;;) {
    const value = randomBytes(32).toString('base64url');
    if (secretSetting.safeParse(value).success) return value;
  }
}

const fileOf = (dataDir: string) => path.join(dataDir, 'secrets.json');

async function save(dataDir: string, secrets: EmbeddedSecrets): Promise<void> {
  await writeFile(fileOf(dataDir), JSON.stringify(secrets, null, 2), { mode: 0o600 });
}

/**
 * Generated once per data folder, so sessions, sign-ins and sealed secrets survive a restart. A
 * folder from before a secret existed gets that one added (a process added to the registry, its
 * key pair), the others kept; the shared identity secret of earlier versions is dropped.
 */
export async function loadOrCreateSecrets(dataDir: string): Promise<EmbeddedSecrets> {
  const text = existsSync(fileOf(dataDir)) ? await readFile(fileOf(dataDir), 'utf8') : '{}';
  const stored = JSON.parse(text) as Partial<EmbeddedSecrets>;
  const secrets: EmbeddedSecrets = {
    sessionSecret: stored.sessionSecret ?? randomSecret(),
    oidcClientSecret: stored.oidcClientSecret ?? randomSecret(),
    dataEncryptionKey: stored.dataEncryptionKey ?? randomSecret(),
    dataEncryptionOldKeys: stored.dataEncryptionOldKeys ?? [],
    identityKeys: Object.fromEntries(serviceNames.map((name) => [name, stored.identityKeys?.[name] ?? generateIdentityKeyPair()])) as Record<ServiceName, IdentityKeyPair>,
    qpayWebhookSecret: stored.qpayWebhookSecret ?? randomSecret(),
  };
  if (JSON.stringify(secrets, null, 2) !== text) await save(dataDir, secrets);
  return secrets;
}

/**
 * The embedded half of `make rotate-data-key`: the current data key joins the old keys and a new
 * one is made. Written before anything is re-sealed, so every value opens whatever happens next.
 */
export async function rotateDataEncryptionKey(dataDir: string): Promise<EmbeddedSecrets> {
  const current = await loadOrCreateSecrets(dataDir);
  const rotated = { ...current, dataEncryptionKey: randomSecret(), dataEncryptionOldKeys: [current.dataEncryptionKey, ...current.dataEncryptionOldKeys] };
  await save(dataDir, rotated);
  return rotated;
}

/** The data key ring's settings (payments, streaming-keys). */
export const dataEncryptionEnvOf = (secrets: EmbeddedSecrets) => ({
  DATA_ENCRYPTION_KEY: secrets.dataEncryptionKey,
  DATA_ENCRYPTION_OLD_KEYS: secrets.dataEncryptionOldKeys.join(','),
});

/** Process `name`'s identity settings: its own private key, every process's public key. */
export const identityEnvOf = (secrets: EmbeddedSecrets, name: ServiceName) => ({
  IDENTITY_PRIVATE_KEY: secrets.identityKeys[name].privateKey,
  IDENTITY_PUBLIC_KEYS: formatPublicKeys(secrets.identityKeys),
});

/** What a domain service gets from this data folder's secrets: its identity, and payments the chat webhook's first secret. */
export const serviceSecretsEnvOf = (secrets: EmbeddedSecrets, name: ServiceName): Record<string, string> => ({
  ...identityEnvOf(secrets, name),
  ...(name === 'payments' && { QPAY_WEBHOOK_SECRET: secrets.qpayWebhookSecret }),
});

/** Signs as process `name` of this run (operators' tools and tests that call a service directly). */
export const signerOf = (secrets: EmbeddedSecrets, name: ServiceName) => new IdentitySigner(name, secrets.identityKeys[name].privateKey);
