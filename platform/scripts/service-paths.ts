import { existsSync, readdirSync } from 'node:fs';
import { serviceNames } from '@bo/proto';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The gateway owns tables too (users, sessions, api_requests) but lives beside services/, not in it. */
const TOP_LEVEL_OWNERS = ['gateway'];

/** <owner>/prisma: a service's (or the gateway's) multi-file Prisma schema folder, beside its migrations. */
export function serviceSchemaDir(service: string): string {
  return TOP_LEVEL_OWNERS.includes(service) ? path.join(repoRoot, service, 'prisma') : path.join(repoRoot, 'services', service, 'prisma');
}

/** Every process of the registry that has a Prisma schema (prisma/schema.prisma holds its generator and datasource). */
export function servicesWithSchema(): string[] {
  return serviceNames.filter((service) => existsSync(path.join(serviceSchemaDir(service), 'schema.prisma'))).sort();
}

/** Test fixtures shaped like a service (platform/test/fixtures/<name>/prisma), generated with the services. */
export function fixtureSchemaDirs(): string[] {
  const fixtures = path.join(repoRoot, 'platform/test/fixtures');
  return readdirSync(fixtures)
    .map((fixture) => path.join(fixtures, fixture, 'prisma'))
    .filter((schemaDir) => existsSync(path.join(schemaDir, 'schema.prisma')));
}

/** True when the module at metaUrl is the script tsx was asked to run. */
export function isMainModule(metaUrl: string): boolean {
  return process.argv[1] !== undefined && metaUrl === pathToFileURL(path.resolve(process.argv[1])).href;
}

/** Where a registered process lives: `gateway/` beside services/, every other one in `services/<name>/`. */
export function serviceFolder(service: string): string {
  return TOP_LEVEL_OWNERS.includes(service) ? path.join(repoRoot, service) : path.join(repoRoot, 'services', service);
}

/** The file every container and the distributed launcher run for a process (`node --import tsx <main>`). */
export const serviceMain = (service: string): string => path.join(serviceFolder(service), 'src/main.ts');
