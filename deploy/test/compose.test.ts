import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { z } from 'zod';
import { gatewayEnvSchema } from '@bo/gateway/config';
import { pricingEnvSchema } from '@bo/pricing/config';

// There is no Docker engine on the machines we build on, so the distributed topology is checked
// here: the file parses, every process is configured only by environment variables that its own
// config schema accepts, and the image build copies every workspace.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const compose = parse(readFileSync(path.join(root, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
  services: Record<string, { image?: string; build?: unknown; command?: string[]; environment?: Record<string, string>; depends_on?: Record<string, unknown> }>;
};

/** What docker compose does to `${NAME:-default}` when NAME is not set. */
function withDefaults(environment: Record<string, string> = {}): Record<string, string> {
  return Object.fromEntries(Object.entries(environment).map(([name, value]) => [name, String(value).replace(/\$\{[A-Z_]+:-([^}]*)\}/g, '$1')]));
}

const schemas: Record<string, z.ZodType> = { gateway: gatewayEnvSchema, pricing: pricingEnvSchema };

describe('docker-compose.yml', () => {
  it('runs the infrastructure, the simulators, the gateway and every built service', () => {
    const names = Object.keys(compose.services);
    for (const name of ['postgres', 'redis', 'rabbitmq', 'sheets-simulator', 'oidc-simulator', 'gateway', 'pricing']) expect(names).toContain(name);
    const services = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).workspaces as string[];
    expect(services).toContain('services/*');
  });

  it('starts each app container from a main file that exists', () => {
    for (const [name, service] of Object.entries(compose.services)) {
      if (!service.command) continue;
      const main = service.command.at(-1)!;
      expect(existsSync(path.join(root, main)), `${name}: ${main}`).toBe(true);
    }
  });

  it('configures each service only through environment its config schema accepts', () => {
    for (const [name, schema] of Object.entries(schemas)) {
      const result = schema.safeParse(withDefaults(compose.services[name].environment));
      expect(result.success, `${name}: ${result.error?.issues.map((i) => i.path.join('.') + ' ' + i.message).join('; ')}`).toBe(true);
      expect(compose.services[name].environment?.DATABASE_URL, name).toMatch(/^postgres:\/\/.+@postgres:5432\//);
      expect(compose.services[name].environment?.REDIS_URL, name).toBe('redis://redis:6379');
    }
  });

  it('only depends on services that exist', () => {
    for (const [name, service] of Object.entries(compose.services)) {
      for (const dependency of Object.keys(service.depends_on ?? {})) expect(compose.services, `${name} -> ${dependency}`).toHaveProperty(dependency);
    }
  });
});

describe('Dockerfile', () => {
  const dockerfile = readFileSync(path.join(root, 'Dockerfile'), 'utf8');

  it('copies every workspace manifest before npm ci, so the install layer is complete', () => {
    const copied = [...dockerfile.matchAll(/^COPY (\S+)\/package\.json /gm)].map((m) => m[1]);
    const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, { link?: boolean }> };
    const workspaces = Object.keys(lock.packages).filter((key) => key !== '' && !key.startsWith('node_modules/'));
    expect(copied.sort()).toEqual(workspaces.sort());
  });

  it('builds the image contents the way make build does', () => {
    expect(dockerfile).toContain('npx tsx platform/scripts/prisma-generate.ts && npm run build -w web');
    const makefile = readFileSync(path.join(root, 'Makefile'), 'utf8');
    expect(makefile).toContain('npx tsx platform/scripts/prisma-generate.ts');
    expect(makefile).toContain('npm run build -w web');
  });
});
