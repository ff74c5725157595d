import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadServiceDefinition } from '@bo/platform/service';
import { serviceNames } from '@bo/proto';
import { deployFiles, INFRASTRUCTURE_IMAGES, renderCompose, renderKubernetes } from '../embedded/src/deploy-files';

// There is no Docker engine on the machines we build on, so the distributed topology is checked
// here: the files are what the registry renders, every process is configured only by environment
// variables its own config schema accepts, and the image is built and run as the containers need.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const composeText = readFileSync(deployFiles.compose, 'utf8');
const compose = parse(composeText) as {
  services: Record<string, { image?: string; command?: string[]; environment?: Record<string, string>; depends_on?: Record<string, unknown> }>;
};

/** What docker compose does to `${NAME:-default}` when NAME is not set. */
function withDefaults(environment: Record<string, string> = {}): Record<string, string> {
  return Object.fromEntries(Object.entries(environment).map(([name, value]) => [name, String(value).replace(/\$\{[A-Z_]+:-([^}]*)\}/g, '$1')]));
}

describe('the deploy files', () => {
  it('are what the service registry renders (run `make deploy-files` after changing a service)', async () => {
    expect(composeText).toBe(await renderCompose());
    const kubernetes = await renderKubernetes();
    expect(readFileSync(deployFiles.kubernetesServices, 'utf8')).toBe(kubernetes.services);
    expect(readFileSync(deployFiles.kubernetesSecrets, 'utf8')).toBe(kubernetes.secrets);
  });
});

describe('docker-compose.yml', () => {
  it('runs the infrastructure at the versions CI tests, and every process of the registry', () => {
    expect(compose.services.postgres.image).toBe(INFRASTRUCTURE_IMAGES.postgres);
    expect(compose.services.rabbitmq.image).toBe(INFRASTRUCTURE_IMAGES.rabbitmq);
    for (const name of serviceNames) expect(compose.services, name).toHaveProperty(name);
  });

  it('starts each app container as `node --import tsx <main>` (the process gets SIGTERM itself) from a main file that exists', () => {
    for (const [name, service] of Object.entries(compose.services)) {
      if (!service.command) continue;
      expect(service.command.slice(0, 3), name).toEqual(['node', '--import', 'tsx']);
      expect(existsSync(path.join(root, service.command.at(-1)!)), `${name}: ${service.command.at(-1)}`).toBe(true);
    }
  });

  it('configures each service only through environment its config schema accepts', async () => {
    for (const name of serviceNames) {
      const { configSchema } = await loadServiceDefinition(name);
      const result = configSchema.safeParse(withDefaults(compose.services[name].environment));
      expect(result.success, `${name}: ${result.error?.issues.map((i) => i.path.join('.') + ' ' + i.message).join('; ')}`).toBe(true);
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
  const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, unknown> };
  const workspaces = Object.keys(lock.packages).filter((key) => key !== '' && !key.startsWith('node_modules/') && !key.includes('/node_modules/'));

  it('copies every workspace manifest before npm ci, so the install layer is complete', () => {
    const copied = [...dockerfile.matchAll(/^COPY (\S+)\/package\.json /gm)].map((m) => m[1]);
    expect(copied.sort()).toEqual(workspaces.sort());
  });

  it('builds on Node 22 the way make build does', () => {
    expect([...dockerfile.matchAll(/^FROM (\S+)/gm)].map((m) => m[1])).toEqual(['node:22-bookworm-slim', 'node:22-bookworm-slim']);
    expect(dockerfile).toContain('npx tsx platform/scripts/prisma-generate.ts && npm run build -w web');
    const makefile = readFileSync(path.join(root, 'Makefile'), 'utf8');
    expect(makefile).toContain('npx tsx platform/scripts/prisma-generate.ts');
    expect(makefile).toContain('npm run build -w web');
  });

  it('runs production dependencies of the server workspaces only, as the unprivileged node user, with node as the process', () => {
    const runtime = dockerfile.slice(dockerfile.lastIndexOf('FROM '));
    expect(runtime).toMatch(/npm ci --omit=dev/);
    const installed = [...runtime.matchAll(/-w (\S+)/g)].map((m) => m[1]).sort();
    expect(installed).toEqual(workspaces.filter((w) => w !== 'web' && w !== 'deploy/embedded').sort());
    expect(runtime).toMatch(/^USER node$/m);
    expect(runtime).toContain('CMD ["node", "--import", "tsx", "gateway/src/main.ts"]');
    const rootPackage = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(rootPackage.dependencies).toHaveProperty('tsx');
  });
});
