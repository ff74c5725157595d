import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { bundleImports, serviceBundle } from '@bo/platform/scripts/service-bundle';
import { loadServiceDefinition } from '@bo/platform/service';
import { serviceNames } from '@bo/proto';
import { deployFiles, INFRASTRUCTURE_IMAGES, renderCompose, renderKubernetes } from '../embedded/src/deploy-files';
import { freshComposeSecrets, identityVariableOf, OWN_SECRETS, writeComposeEnv } from '../embedded/src/deployment-secrets';

// There is no Docker engine on the machines we build on, so the distributed topology is checked
// here: the files are what the registry renders, every process is configured only by environment
// variables its own config schema accepts, and the image is built and run as the containers need.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const composeText = readFileSync(deployFiles.compose, 'utf8');
const compose = parse(composeText) as {
  services: Record<string, { build?: unknown; image?: string; command?: string[]; environment?: Record<string, string>; depends_on?: Record<string, unknown>; restart?: string }>;
};

/**
 * What docker compose makes of a service's environment with `dotEnv` as its .env: `${NAME:-default}`
 * is the value or the default, `${NAME:?…}` the value or a refusal to start (undefined here).
 */
function interpolate(environment: Record<string, string> = {}, dotEnv: Record<string, string> = {}): Record<string, string | undefined> {
  return Object.fromEntries(
    Object.entries(environment).map(([name, value]) => {
      const required = /^\$\{([A-Z0-9_]+):\?[^}]*\}$/.exec(String(value));
      if (required) return [name, dotEnv[required[1]]];
      return [name, String(value).replace(/\$\{([A-Z0-9_]+):-([^}]*)\}/g, (_, variable: string, fallback: string) => dotEnv[variable] ?? fallback)];
    }),
  );
}
const requiredVariables = (environment: Record<string, string> = {}) =>
  Object.values(environment).flatMap((value) => [...String(value).matchAll(/\$\{([A-Z0-9_]+):\?/g)].map((match) => match[1]));

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

  it('starts each process as `node <its options> <its bundle>`, the bundle the image builds, and each simulator as `node --import tsx <main>` (the process gets SIGTERM itself)', async () => {
    const dockerfileText = readFileSync(path.join(root, 'Dockerfile'), 'utf8');
    expect(dockerfileText).toMatch(/RUN .*npx tsx platform\/scripts\/service-bundle\.ts/);
    // The bundles reach the runtime stage, with the web app the gateway serves from where its environment says.
    expect(dockerfileText).toMatch(/^RUN mkdir \/out && cp -r --parents .*\bgateway\/dist services\/\*\/dist web\/dist \/out$/m);
    expect(compose.services.gateway.environment?.WEB_DIST_DIR).toBe('/app/web/dist');
    expect((compose.services.scraper as { mem_limit?: string }).mem_limit).toBe('768m');
    for (const name of serviceNames) {
      const definition = await loadServiceDefinition(name);
      expect(compose.services[name].command, name).toEqual(['node', ...(definition.nodeOptions ?? []), path.relative(root, serviceBundle(name))]);
    }
    for (const [name, service] of Object.entries(compose.services)) {
      if (!service.command || (serviceNames as readonly string[]).includes(name)) continue;
      expect(service.command.slice(0, 3), name).toEqual(['node', '--import', 'tsx']);
      expect(existsSync(path.join(root, service.command.at(-1)!)), `${name}: ${service.command.at(-1)}`).toBe(true);
    }
  });

  it('starts every process again when it ends with a failure (its last line exits 1; an OOM kill), as make start and make start-distributed do', () => {
    // `unless-stopped`: Docker and Podman start a container again after any end but `docker compose stop`.
    for (const name of serviceNames) expect(compose.services[name].restart, name).toBe('unless-stopped');
  });

  it('requires every secret of our own making (${NAME:?…}, never a default): exactly what make compose-env writes', () => {
    const required = new Set(Object.values(compose.services).flatMap((service) => requiredVariables(service.environment)));
    expect([...required].sort()).toEqual(Object.keys(freshComposeSecrets()).sort());
    for (const service of Object.values(compose.services)) {
      for (const secret of [...OWN_SECRETS, 'IDENTITY_PRIVATE_KEY', 'IDENTITY_PUBLIC_KEYS']) {
        if (service.environment?.[secret] !== undefined) expect(service.environment[secret]).toMatch(/^\$\{[A-Z0-9_]+:\?/);
      }
    }
    // Each process signs with its own key; the data key and the chat webhook's secret go only to those that use them.
    for (const name of serviceNames) expect(requiredVariables({ key: compose.services[name].environment!.IDENTITY_PRIVATE_KEY })).toEqual([identityVariableOf(name)]);
    expect(requiredVariables(compose.services.payments.environment)).toEqual(expect.arrayContaining(['QPAY_WEBHOOK_SECRET', 'DATA_ENCRYPTION_KEY']));
    expect(serviceNames.filter((name) => compose.services[name].environment!.DATA_ENCRYPTION_KEY)).toEqual(['payments', 'streaming-keys']);
    // Without a .env, compose has no value for them: it refuses to start.
    for (const name of serviceNames) expect(Object.values(interpolate(compose.services[name].environment)), name).toContain(undefined);
  });

  it('configures each service only through environment its config schema accepts, once make compose-env wrote .env', async () => {
    const dotEnv = freshComposeSecrets();
    for (const name of serviceNames) {
      const { configSchema } = await loadServiceDefinition(name);
      const result = configSchema.safeParse(interpolate(compose.services[name].environment, dotEnv));
      expect(result.success, `${name}: ${result.error?.issues.map((i) => i.path.join('.') + ' ' + i.message).join('; ')}`).toBe(true);
    }
  });

  it('generates every secret a process refuses a placeholder for (a new one cannot be forgotten in make compose-env)', async () => {
    const dotEnv = freshComposeSecrets();
    for (const name of serviceNames) {
      const definition = await loadServiceDefinition(name);
      const env = interpolate(compose.services[name].environment, dotEnv);
      for (const [secret, placeholder] of Object.entries(definition.deployment.secrets)) {
        if (!definition.configSchema.safeParse({ ...env, [secret]: placeholder }).success) expect(OWN_SECRETS, `${name} ${secret}`).toContain(secret);
      }
    }
  });

  it('make compose-env writes .env once, keeps what is there, and adds only what is missing', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'compose-env-'));
    try {
      const file = path.join(dir, '.env');
      expect((await writeComposeEnv(file)).sort()).toEqual(Object.keys(freshComposeSecrets()).sort());
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      const first = await readFile(file, 'utf8');
      expect(await writeComposeEnv(file)).toEqual([]);
      expect(await readFile(file, 'utf8')).toBe(first);
      await writeFile(file, first.replace(/^SESSION_SECRET=.*\n/m, ''));
      expect(await writeComposeEnv(file)).toEqual(['SESSION_SECRET']);
      expect((await readFile(file, 'utf8')).replace(/^SESSION_SECRET=.*\n/m, '')).toBe(first.replace(/^SESSION_SECRET=.*\n/m, ''));
      // Half a set of identity keys cannot be completed: every process would need the new public list.
      await writeFile(file, first.replace(/^AI_CHAT_IDENTITY_PRIVATE_KEY=.*\n/m, ''));
      await expect(writeComposeEnv(file)).rejects.toThrow('has identity keys for some processes only');
    } finally {
      await rm(dir, { recursive: true, force: true });
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
    // The build, the runtime, the scraper's runtime with Chromium, and the runtime again as the default target.
    expect([...dockerfile.matchAll(/^FROM (\S+)/gm)].map((m) => m[1])).toEqual(['node:22-bookworm-slim', 'node:22-bookworm-slim', 'runtime', 'runtime']);
    expect(dockerfile).toContain('npx tsx platform/scripts/prisma-generate.ts && npm run build -w web && npx tsx platform/scripts/service-bundle.ts');
    const makefile = readFileSync(path.join(root, 'Makefile'), 'utf8');
    expect(makefile).toContain('npx tsx platform/scripts/prisma-generate.ts');
    expect(makefile).toContain('npm run build -w web');
  });

  it('runs production dependencies of the server workspaces only, as the unprivileged node user, with node as the process', () => {
    const runtimeAt = dockerfile.indexOf(' AS runtime\n');
    const runtime = dockerfile.slice(runtimeAt, dockerfile.indexOf('\nFROM ', runtimeAt));
    expect(dockerfile.trimEnd().split('\n').at(-1)).toBe('FROM runtime');
    expect(runtime).toMatch(/npm ci --omit=dev/);
    const installed = [...runtime.matchAll(/-w (\S+)/g)].map((m) => m[1]).sort();
    expect(installed).toEqual(workspaces.filter((w) => w !== 'web' && w !== 'deploy/embedded').sort());
    expect(runtime).toMatch(/^USER node$/m);
    expect(runtime).toContain(`CMD ["node", "${path.relative(root, serviceBundle('gateway'))}"]`);
    const rootPackage = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(rootPackage.dependencies).toHaveProperty('tsx');
  });

  it('installs every npm package a process\'s bundle imports: a production dependency of a workspace the runtime installs, or of the root', async () => {
    const runtimeAt = dockerfile.indexOf(' AS runtime\n');
    const runtime = dockerfile.slice(runtimeAt, dockerfile.indexOf('\nFROM ', runtimeAt));
    const manifests = ['.', ...[...runtime.matchAll(/-w (\S+)/g)].map((m) => m[1])].map((folder) => JSON.parse(readFileSync(path.join(root, folder, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> });
    const production = new Set(manifests.flatMap((manifest) => Object.keys(manifest.dependencies ?? {})));
    for (const name of serviceNames) {
      const imports = await bundleImports(name);
      expect(imports.length, name).toBeGreaterThan(0);
      expect(imports.filter((imported) => !production.has(imported)), `${name}'s bundle imports these, which the image would not install`).toEqual([]);
    }
  });

  it('gives the scraper an image with Debian\'s Chromium headless shell, still run as the node user, and builds it by that target', () => {
    const scraperAt = dockerfile.indexOf('FROM runtime AS scraper');
    expect(scraperAt).toBeGreaterThan(0);
    const stage = dockerfile.slice(scraperAt, dockerfile.indexOf('\nFROM ', scraperAt));
    expect(stage).toMatch(/apt-get install -y --no-install-recommends chromium-headless-shell/);
    expect([...stage.matchAll(/^USER (\S+)$/gm)].map((m) => m[1]).at(-1)).toBe('node');
    expect(compose.services.scraper).toMatchObject({ build: { context: '.', target: 'scraper' }, image: 'backoffice-scraper:latest' });
    expect(compose.services.pricing).toMatchObject({ build: '.', image: 'backoffice:latest' });
  });
});
