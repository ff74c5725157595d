import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';

/** For a service's own metrics, registered on its app's registry (`app.metrics.registry`). */
export { Counter } from 'prom-client';

/** One registry per app, so several apps in one process (embedded mode) do not collide. */
export function createMetrics(service: string) {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry });
  const httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by route and status',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  return { registry, httpDuration };
}
export type Metrics = ReturnType<typeof createMetrics>;
