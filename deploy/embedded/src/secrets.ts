import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

export interface EmbeddedSecrets {
  identitySecret: string;
  sessionSecret: string;
  oidcClientSecret: string;
  /** Seals secrets services keep in their tables (QPay's client secret, streaming accounts' passwords). */
  dataEncryptionKey: string;
  /** The chat webhook's X-Webhook-Secret a fresh database starts with (payments keeps it sealed; Rotate on /qpay replaces it). */
  qpayWebhookSecret: string;
}

const secret = () => randomBytes(32).toString('base64url');
// Hex never spells a placeholder word ("xxxx", "example"), which secretSetting refuses.
const hexSecret = () => randomBytes(32).toString('hex');

/**
 * Generated once per data folder, so sessions, sign-ins and sealed secrets survive a restart. A
 * folder from before a secret existed gets that one added, the others kept.
 */
export async function loadOrCreateSecrets(dataDir: string): Promise<EmbeddedSecrets> {
  const file = path.join(dataDir, 'secrets.json');
  const stored = existsSync(file) ? (JSON.parse(await readFile(file, 'utf8')) as Partial<EmbeddedSecrets>) : {};
  const secrets: EmbeddedSecrets = {
    identitySecret: stored.identitySecret ?? secret(),
    sessionSecret: stored.sessionSecret ?? secret(),
    oidcClientSecret: stored.oidcClientSecret ?? secret(),
    dataEncryptionKey: stored.dataEncryptionKey ?? secret(),
    qpayWebhookSecret: stored.qpayWebhookSecret ?? hexSecret(),
  };
  if (Object.keys(stored).length !== Object.keys(secrets).length) await writeFile(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}
