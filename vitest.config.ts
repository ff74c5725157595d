import { defineConfig } from 'vitest/config';
import { SlowestFilesReporter } from './platform/src/testing/slowest-files-reporter.js';
import { testFiles } from './platform/src/testing/test-sets.js';

// One run covers every workspace. Server suites talk to the machine's real PostgreSQL, Redis and
// RabbitMQ, each in its own database / key prefix / vhost, so files may run in parallel. The
// browser journeys (web/vitest.config.ts) start the embedded system and run one file at a time:
// two at once on two cores time out. vitest runs a one-at-a-time project after the others, so
// `make test` runs the two projects as two runs side by side instead, and the Node 20 smoke
// (test-sets.ts) after the server run.
export default defineConfig({
  test: {
    reporters: ['default', new SlowestFilesReporter(10)],
    projects: [
      {
        test: {
          name: 'server',
          ...testFiles('server', ['{platform,proto,gateway,deploy,services/*,simulators/*,deploy/*}/test/**/*.test.ts'], ['**/node_modules/**', '**/dist/**']),
          pool: 'forks',
          // A worker keeps the modules it loaded from one file to the next: every file imports
          // much the same services, Prisma clients and drivers, and loading them anew per file cost
          // 40 % of the run's CPU (measured on services/streaming-keys/test: 126 → 74 CPU-s). Files
          // still share nothing else: each makes its own database, vhost, key prefix and ports.
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
          maxWorkers: 2,
        },
      },
      'web/vitest.config.ts',
    ],
  },
});
