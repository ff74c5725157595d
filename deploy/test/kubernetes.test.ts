import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { serviceBundle } from '@bo/platform/scripts/service-bundle';
import { loadServiceDefinition } from '@bo/platform/service';
import { serviceNames } from '@bo/proto';
import { freshIdentityKeys } from '../embedded/src/deployment-secrets';
import { randomSecret } from '../embedded/src/secrets';

// No cluster here either: the manifests are parsed, each Deployment's environment (its own
// ConfigMap and the example of its own Secret) must satisfy its service's config schema, and the
// pods must meet the "restricted" Pod Security Standard.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dir = path.join(root, 'deploy/kubernetes');

interface Container {
  command: string[];
  ports: { containerPort: number }[];
  envFrom: ({ configMapRef?: { name: string } } & { secretRef?: { name: string } })[];
  securityContext: Record<string, unknown>;
  startupProbe: { httpGet: { path: string; port: number } };
  readinessProbe: { httpGet: { path: string; port: number } };
  livenessProbe: { httpGet: { path: string; port: number } };
  lifecycle: { preStop: unknown };
  resources: { requests: { memory: string }; limits: { memory: string } };
}
interface Manifest {
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  data?: Record<string, string>;
  stringData?: Record<string, string>;
  resources?: string[];
  spec?: { template: { spec: { securityContext: Record<string, unknown>; containers: Container[] } } };
}

const read = (file: string): Manifest[] => parseAllDocuments(readFileSync(path.join(dir, file), 'utf8')).map((doc) => doc.toJSON() as Manifest);
const kustomization = read('kustomization.yaml')[0];
const manifests = (kustomization.resources ?? []).flatMap(read);
const examples = read('secrets.example.yaml');
const secretOf = (name: string) => examples.find((s) => s.kind === 'Secret' && s.metadata.name === `${name}-secrets`)!;
const identityConfigMap = examples.find((m) => m.kind === 'ConfigMap' && m.metadata.name === 'identity-public-keys')!;
/** What a process's environment is made of: its ConfigMap, the identity-public-keys ConfigMap and its Secret, in the envFrom order. */
const exampleEnv = (name: string): Record<string, string> => ({ ...find('ConfigMap', `${name}-config`)!.data, ...identityConfigMap.data, ...secretOf(name).stringData });

/** A placeholder of the example: `replace-me`, `replace-with-…`, `<what to put>`. */
const PLACEHOLDER = 'replace-me|replace-with-[\\w-]*|<[^>]+>';
const hasPlaceholder = (value: string) => new RegExp(PLACEHOLDER).test(value);
/** A bare placeholder becomes a random secret; a URL or JSON document keeps its shape, its placeholder parts filled. */
const filled = (value: string) => (new RegExp(`^(${PLACEHOLDER})$`).test(value) ? randomSecret() : value.replace(new RegExp(PLACEHOLDER, 'g'), () => randomSecret()));
const find = (kind: string, name: string) => manifests.find((m) => m.kind === kind && m.metadata.name === name);
const containerOf = (name: string) => find('Deployment', name)!.spec!.template.spec.containers[0];

describe('Kubernetes manifests', () => {
  it('deploy every process of the registry with a Service and a disruption budget, in a restricted namespace', () => {
    expect(manifests.filter((m) => m.kind === 'Deployment').map((d) => d.metadata.name).sort()).toEqual([...serviceNames].sort());
    for (const name of serviceNames) {
      expect(find('Service', name), name).toBeDefined();
      expect(find('PodDisruptionBudget', name), name).toBeDefined();
    }
    expect(find('Namespace', 'backoffice')!.metadata.labels).toMatchObject({ 'pod-security.kubernetes.io/enforce': 'restricted' });
  });

  it('meet the restricted Pod Security Standard', () => {
    for (const name of serviceNames) {
      const pod = find('Deployment', name)!.spec!.template.spec;
      expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } });
      expect(containerOf(name).securityContext).toMatchObject({ allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } });
    }
  });

  it('start from their bundle with their node options, wait for migrations with a startup probe, and pause before SIGTERM', async () => {
    for (const name of serviceNames) {
      const container = containerOf(name);
      expect(container.command).toEqual(['node', ...((await loadServiceDefinition(name)).nodeOptions ?? []), path.relative(root, serviceBundle(name))]);
      const port = container.ports[0].containerPort;
      expect(container.startupProbe.httpGet).toEqual({ path: '/health', port });
      expect(container.livenessProbe.httpGet).toEqual({ path: '/health', port });
      expect(container.readinessProbe.httpGet.path).toBe('/ready');
      expect(container.lifecycle.preStop).toBeDefined();
    }
    // The gateway keeps /ready off its public port.
    expect(containerOf('gateway').readinessProbe.httpGet.port).not.toBe(containerOf('gateway').ports[0].containerPort);
  });

  it('start a failed process again: a Deployment\'s pods restart Always (the default, never overridden), and liveness ends one that stopped answering', () => {
    for (const name of serviceNames) {
      const pod = find('Deployment', name)!.spec!.template.spec as { restartPolicy?: string };
      expect(pod.restartPolicy ?? 'Always', name).toBe('Always');
      expect(containerOf(name).livenessProbe, name).toBeDefined();
    }
  });

  it('give the scraper the memory its worker and Chromium need, every other process the common 192Mi/512Mi, and the gateway the web app the image carries', async () => {
    for (const name of serviceNames) {
      const memory = (await loadServiceDefinition(name)).deployment.memory ?? { request: '192Mi', limit: '512Mi' };
      expect(containerOf(name).resources, name).toMatchObject({ requests: { memory: memory.request }, limits: { memory: memory.limit } });
    }
    // A worker with its Chromium peaks under 600 MB (bench/scraper.ts): its limit leaves room above.
    expect(Number.parseInt(containerOf('scraper').resources.limits.memory, 10)).toBeGreaterThan(600);
    expect(find('ConfigMap', 'gateway-config')!.data!.WEB_DIST_DIR).toBe('/app/web/dist');
    expect(readFileSync(path.join(root, 'Dockerfile'), 'utf8')).toMatch(/^WORKDIR \/app$/m);
  });

  it('give each process only its own config and Secret (AMQP credentials in it), and every process the public identity keys', () => {
    for (const name of serviceNames) {
      const container = containerOf(name);
      expect(container.envFrom).toEqual([{ configMapRef: { name: `${name}-config` } }, { configMapRef: { name: 'identity-public-keys' } }, { secretRef: { name: `${name}-secrets` } }]);
      expect(secretOf(name).stringData!.AMQP_URL).toMatch(/^amqp:\/\/[^:]+:[^@]+@/);
      expect(secretOf(name).stringData!).toHaveProperty('IDENTITY_PRIVATE_KEY');
      expect(find('ConfigMap', `${name}-config`)!.data).not.toHaveProperty('AMQP_URL');
    }
    expect(identityConfigMap.data!.IDENTITY_PUBLIC_KEYS.split(',').map((entry) => entry.split(':')[0])).toEqual([...serviceNames]);
  });

  it("have each process's config schema refuse the example's placeholders, naming the identity keys and the secrets", async () => {
    const refusedEverywhere = ['IDENTITY_PRIVATE_KEY', 'IDENTITY_PUBLIC_KEYS'];
    const refusedBy: Record<string, string[]> = { gateway: ['SESSION_SECRET'], payments: ['DATA_ENCRYPTION_KEY', 'QPAY_WEBHOOK_SECRET'], 'streaming-keys': ['DATA_ENCRYPTION_KEY'] };
    for (const name of serviceNames) {
      const { configSchema } = await loadServiceDefinition(name);
      const result = configSchema.safeParse(exampleEnv(name));
      expect(result.success, name).toBe(false);
      const refused = [...new Set(result.error!.issues.map((issue) => String(issue.path[0])))];
      expect(refused, name).toEqual(expect.arrayContaining([...refusedEverywhere, ...(refusedBy[name] ?? [])]));
    }
  });

  it("have each process's config schema accept the environment once real values replace the placeholders", async () => {
    const { pairs, publicKeys } = freshIdentityKeys();
    for (const name of serviceNames) {
      const env = Object.fromEntries(
        Object.entries(exampleEnv(name)).map(([variable, value]) => {
          if (variable === 'IDENTITY_PRIVATE_KEY') return [variable, pairs[name].privateKey];
          if (variable === 'IDENTITY_PUBLIC_KEYS') return [variable, publicKeys];
          return [variable, filled(value)];
        }),
      );
      expect(Object.values(env).filter(hasPlaceholder), name).toEqual([]);
      const { configSchema } = await loadServiceDefinition(name);
      const result = configSchema.safeParse(env);
      expect(result.success, `${name}: ${result.error?.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`).toBe(true);
    }
  });
});
