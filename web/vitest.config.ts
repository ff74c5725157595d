import { defineConfig } from 'vitest/config';
import { testFiles, WORKERS } from '../platform/src/testing/test-sets.js';

// Browser journeys against the embedded system (e2e/) and unit tests of pure helpers (src/):
// `npx vitest run --project web <file>`.
export default defineConfig({
  test: {
    name: 'web',
    root: import.meta.dirname,
    ...testFiles('web', ['e2e/**/*.test.ts', 'src/**/*.test.ts'], ['**/node_modules/**']),
    pool: 'forks',
    // The same pool as the server suites (one group in vitest's scheduler), so journeys run beside them rather than after them.
    maxWorkers: WORKERS,
    globalSetup: ['e2e/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
