import { readdir, stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { buildWebApp } from './support';

const web = fileURLToPath(new URL('..', import.meta.url));

/** The newest modification time under `path` (a file or a folder). */
async function newest(path: string): Promise<number> {
  const info = await stat(path);
  if (!info.isDirectory()) return info.mtimeMs;
  const entries = await readdir(path);
  return Math.max(info.mtimeMs, ...(await Promise.all(entries.map((entry) => newest(`${path}/${entry}`)))));
}

/**
 * The production build the gateway serves (web/dist), made from the code under test once per run
 * rather than once per browser suite, and not at all when it is newer than every source (`make
 * test` has just built it, and two runs side by side must not write it at once).
 */
export default async function setup(): Promise<void> {
  const built = await stat(`${web}/dist/index.html`).then((info) => info.mtimeMs, () => 0);
  const sources = Math.max(...(await Promise.all(['src', 'index.html', 'vite.config.ts', 'package.json'].map((path) => newest(`${web}/${path}`)))));
  if (built > sources) return;
  await buildWebApp();
}
