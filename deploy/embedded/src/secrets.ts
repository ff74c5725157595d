import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

export interface EmbeddedSecrets {
  identitySecret: string;
  sessionSecret: string;
  oidcClientSecret: string;
}

/** Generated once per data folder, so sessions and sign-ins survive a restart. */
export async function loadOrCreateSecrets(dataDir: string): Promise<EmbeddedSecrets> {
  const file = path.join(dataDir, 'secrets.json');
  if (existsSync(file)) return JSON.parse(await readFile(file, 'utf8')) as EmbeddedSecrets;
  const secret = () => randomBytes(32).toString('base64url');
  const secrets = { identitySecret: secret(), sessionSecret: secret(), oidcClientSecret: secret() };
  await writeFile(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}
