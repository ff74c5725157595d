import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import type { z } from 'zod';
import { gatewayEnvSchema } from '@bo/gateway/config';
import { pricingEnvSchema } from '@bo/pricing/config';

// No cluster here either: the manifests are parsed, and each Deployment's environment (ConfigMap,
// the example Secret's shape and its own env) must satisfy its service's config schema.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dir = path.join(root, 'deploy/kubernetes');

interface Manifest {
  kind: string;
  metadata: { name: string };
  data?: Record<string, string>;
  stringData?: Record<string, string>;
  resources?: string[];
  spec?: {
    template: {
      spec: {
        containers: {
          command: string[];
          ports: { containerPort: number }[];
          env?: { name: string; value: string }[];
          envFrom: ({ configMapRef?: { name: string } } & { secretRef?: { name: string } })[];
          readinessProbe: { httpGet: { path: string; port: number } };
          livenessProbe: { httpGet: { path: string; port: number } };
        }[];
      };
    };
  };
}

const read = (file: string): Manifest[] => parseAllDocuments(readFileSync(path.join(dir, file), 'utf8')).map((doc) => doc.toJSON() as Manifest);
const kustomization = read('kustomization.yaml')[0];
const manifests = [...(kustomization.resources ?? []).flatMap(read), ...read('secrets.example.yaml')];
const configMap = manifests.find((m) => m.kind === 'ConfigMap')!;
const secret = manifests.find((m) => m.kind === 'Secret')!;
const deployments = manifests.filter((m) => m.kind === 'Deployment');
const schemas: Record<string, z.ZodType> = { gateway: gatewayEnvSchema, pricing: pricingEnvSchema };

describe('Kubernetes manifests', () => {
  it('deploy the gateway and every built service, each with a Service in front', () => {
    expect(deployments.map((d) => d.metadata.name).sort()).toEqual(Object.keys(schemas).sort());
    for (const deployment of deployments) {
      expect(manifests.some((m) => m.kind === 'Service' && m.metadata.name === deployment.metadata.name), deployment.metadata.name).toBe(true);
    }
  });

  it('start each container from a main file that exists, probed on /ready and /health', () => {
    for (const deployment of deployments) {
      const [container] = deployment.spec!.template.spec.containers;
      expect(existsSync(path.join(root, container.command.at(-1)!)), deployment.metadata.name).toBe(true);
      const port = container.ports[0].containerPort;
      expect(container.readinessProbe.httpGet).toEqual({ path: '/ready', port });
      expect(container.livenessProbe.httpGet).toEqual({ path: '/health', port });
    }
  });

  it('configure each service only through environment its config schema accepts', () => {
    for (const deployment of deployments) {
      const [container] = deployment.spec!.template.spec.containers;
      expect(container.envFrom).toEqual([{ configMapRef: { name: configMap.metadata.name } }, { secretRef: { name: secret.metadata.name } }]);
      const env = { ...configMap.data, ...secret.stringData, ...Object.fromEntries((container.env ?? []).map((e) => [e.name, e.value])) };
      const result = schemas[deployment.metadata.name].safeParse(env);
      expect(result.success, `${deployment.metadata.name}: ${result.error?.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`).toBe(true);
    }
  });
});
