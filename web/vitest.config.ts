import { defineConfig } from 'vitest/config';

// Browser journeys against the embedded system (e2e/) and unit tests of pure helpers (src/):
// `npx vitest run --project web <file>`.
export default defineConfig({
  test: {
    name: 'web',
    root: import.meta.dirname,
    include: ['e2e/**/*.test.ts', 'src/**/*.test.ts'],
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
