/**
 * Which test files a run takes (`TEST_SET`, set by `make test`): `node22` is every suite but the
 * Node 20 smoke, run on Node 22 as the images are; `node20-smoke` is only the smoke, run on Node 20
 * for the lower end of the engines range: a fresh copy of the repository started and stopped, and
 * one journey (a payment, through payments, streaming-keys and notifications, to the key message).
 * Unset: everything, on whatever Node runs vitest.
 */
const node20Smoke = { server: ['deploy/embedded/test/fresh-clone.test.ts', 'services/payments/test/money-path.test.ts'], web: [] } as const;

const testSet = process.env.TEST_SET;
if (testSet !== undefined && testSet !== 'node22' && testSet !== 'node20-smoke') throw new Error(`TEST_SET must be node22 or node20-smoke, not ${testSet}`);

/** A project's include and exclude patterns for this run's test set. */
export function testFiles(project: keyof typeof node20Smoke, include: string[], exclude: string[]): { include: string[]; exclude: string[] } {
  const smoke = [...node20Smoke[project]];
  if (testSet === 'node20-smoke') return { include: smoke, exclude };
  if (testSet === 'node22') return { include, exclude: [...exclude, ...smoke] };
  return { include, exclude };
}
