import { defineConfig } from 'vitest/config';

// Browser journeys against the embedded system: `npx vitest run --config web/vitest.config.ts`.
export default defineConfig({
  test: {
    name: 'web',
    root: import.meta.dirname,
    include: ['e2e/**/*.test.ts'],
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
