/**
 * `make rotate-data-key`: re-seals every sealed column of every service (each declares them in its
 * definition) with the newest data encryption key, and prints per service, table and column what
 * was re-sealed, what was already current and what could not be opened (by key id).
 *
 * - Distributed run (DATABASE_URL set): the operator has already given every process the new
 *   DATA_ENCRYPTION_KEY and the old ones in DATA_ENCRYPTION_OLD_KEYS (and restarted them); this
 *   command gets the same variables.
 * - Embedded run (no DATABASE_URL): it makes the new key itself in data/secrets.json (the current
 *   one joins the old keys), then re-seals on the embedded database. `make start` must be stopped:
 *   its services hold the old key ring.
 *
 * Exit code 0 when every value is sealed with the newest key, 1 when some could not be opened.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SecretBox } from '@bo/platform';
import { rotateDataKey, rotateFromEnvironment, rotationReport, type ColumnRotation } from '@bo/platform/service';
import { runningServer, startEmbeddedPostgres } from './postgres';
import { rotateDataEncryptionKey } from './secrets';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export class EmbeddedSystemRunning extends Error {}

/** The embedded run's rotation: a new key in `dataDir`/secrets.json, then every sealed value re-sealed with it. */
export async function rotateEmbeddedDataKey(dataDir: string): Promise<{ keyId: string; results: ColumnRotation[] }> {
  const folder = path.join(dataDir, 'postgres');
  const running = await runningServer(folder);
  if (running && !running.orphaned) {
    throw new EmbeddedSystemRunning('The embedded system is running: its services hold the current key ring. Stop it (Ctrl-C), run make rotate-data-key, then make start.');
  }
  const secrets = await rotateDataEncryptionKey(dataDir);
  const box = new SecretBox(secrets.dataEncryptionKey, secrets.dataEncryptionOldKeys);
  const server = await startEmbeddedPostgres(folder);
  try {
    return { keyId: box.keyId, results: await rotateDataKey(server.url, box) };
  } finally {
    await server.stop();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const { keyId, results } = process.env.DATABASE_URL
      ? await rotateFromEnvironment(process.env)
      : await rotateEmbeddedDataKey(path.resolve(process.env.DATA_DIR ?? path.join(repoRoot, 'data')));
    for (const line of rotationReport(results, keyId)) console.log(line);
    process.exit(results.some((result) => Object.keys(result.unreadable).length > 0) ? 1 : 0);
  } catch (error) {
    console.error((error as Error).message);
    process.exit(error instanceof EmbeddedSystemRunning ? 2 : 1);
  }
}
