import { defineConfig } from 'vitest/config';
import { SlowestFilesReporter } from './platform/src/testing/slowest-files-reporter.js';
import { testFiles, WORKERS } from './platform/src/testing/test-sets.js';

// One run covers every workspace. Server suites talk to the machine's real PostgreSQL, Redis and
// RabbitMQ, each in its own database / key prefix / vhost, and every browser journey starts its own
// embedded system, so files of both projects run side by side in one pool (WORKERS: most suites
// spend their time waiting on a database, a broker or a browser, so three keep two cores busy).
// `make test` runs it twice: every suite on Node 22, then the Node 20 smoke (test-sets.ts).
export default defineConfig({
  test: {
    reporters: ['default', new SlowestFilesReporter(10)],
    projects: [
      {
        test: {
          name: 'server',
          ...testFiles('server', ['{platform,proto,gateway,deploy,services/*,simulators/*,deploy/*}/test/**/*.test.ts'], ['**/node_modules/**', '**/dist/**']),
          pool: 'forks',
          testTimeout: 30_000,
          hookTimeout: 60_000,
          maxWorkers: WORKERS,
        },
      },
      'web/vitest.config.ts',
    ],
  },
});
