import { cp, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The throw-away service schema used by the db tests (same layout as services/<name>/prisma). */
export const demoSchemaDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/demo/prisma');
export const demoMigrationsDir = path.join(demoSchemaDir, 'migrations');

/** A private copy of the demo schema folder (symlinks resolved) that a test may edit. */
export async function copyDemoSchema(): Promise<string> {
  const dir = path.join(await mkdtemp(path.join(tmpdir(), 'demo-prisma-')), 'prisma');
  await cp(demoSchemaDir, dir, { recursive: true, dereference: true });
  return dir;
}
