import { defineConfig } from 'vitest/config';

// One run covers every workspace. Server suites talk to the machine's real PostgreSQL, Redis and
// RabbitMQ, each in its own database / key prefix / vhost, so files may run in parallel. The
// browser journeys (web/vitest.config.ts) start the embedded system and run one file at a time.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'server',
          include: ['{platform,proto,gateway,deploy,services/*,simulators/*,deploy/*}/test/**/*.test.ts'],
          exclude: ['**/node_modules/**', '**/dist/**'],
          pool: 'forks',
          testTimeout: 30_000,
          hookTimeout: 60_000,
          maxWorkers: 2,
        },
      },
      'web/vitest.config.ts',
    ],
  },
});
