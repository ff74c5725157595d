import { defineConfig } from 'vitest/config';

// One run covers every workspace. Suites talk to the machine's real PostgreSQL, Redis and
// RabbitMQ, each in its own database / key prefix / vhost, so files may run in parallel.
export default defineConfig({
  test: {
    include: ['{platform,proto,gateway,services/*,simulators/*,deploy/*}/test/**/*.test.ts', 'deploy/*/test/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    maxWorkers: 2,
  },
});
