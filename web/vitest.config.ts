import { defineConfig } from 'vitest/config';
import { testFiles } from '../platform/src/testing/test-sets.js';

// Browser journeys against the embedded system (e2e/) and unit tests of pure helpers (src/):
// `npx vitest run --project web <file>`.
export default defineConfig({
  test: {
    name: 'web',
    root: import.meta.dirname,
    ...testFiles('web', ['e2e/**/*.test.ts', 'src/**/*.test.ts'], ['**/node_modules/**']),
    pool: 'forks',
    // One worker loads the system's modules, Playwright and React once for every file (vitest.config.ts says why).
    isolate: false,
    // One journey at a time: each starts a whole system and a browser, and two at once on two cores time out.
    fileParallelism: false,
    globalSetup: ['e2e/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
