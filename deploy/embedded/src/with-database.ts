/**
 * Runs one command against the embedded run's database, whether `make start` is running or not:
 *   tsx deploy/embedded/src/with-database.ts <command> [args...]
 * The command gets DATABASE_URL. When `make start` runs, that is its server; otherwise the
 * database is started (and created, on a fresh clone) for the command and stopped after it.
 * With DATABASE_URL already set, the command simply runs against that database.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { embeddedPostgresPassword, embeddedPostgresUrl, runningServer, startEmbeddedPostgres } from './postgres';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const folder = path.resolve(process.env.DATA_DIR || path.join(repoRoot, 'data'), 'postgres');
const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error('usage: with-database.ts <command> [args...]');
  process.exit(2);
}

const run = (databaseUrl: string) => spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, DATABASE_URL: databaseUrl } }).status ?? 1;

if (process.env.DATABASE_URL) process.exit(run(process.env.DATABASE_URL));

const running = await runningServer(folder);
if (running && !running.orphaned) {
  console.log(`The embedded system is running; using its database (port ${running.port}).`);
  process.exit(run(embeddedPostgresUrl(await embeddedPostgresPassword(folder), running.port)));
}
console.log(`The embedded system is not running; starting its database in ${path.relative(process.cwd(), folder) || folder} for this command.`);
const server = await startEmbeddedPostgres(folder);
let status: number;
try {
  status = run(server.url);
} finally {
  await server.stop();
}
process.exit(status);
