import { appendFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/** One test file's time from import to its last hook. */
export interface FileDuration {
  file: string;
  project: string;
  ms: number;
  /** The full names of the file's failed tests, or why the file itself failed (an import, a hook). */
  failed?: string[];
}

/** The `count` slowest files, one line each. */
export function slowestFiles(durations: FileDuration[], count: number): string {
  const lines = [...durations]
    .sort((a, b) => b.ms - a.ms)
    .slice(0, count)
    .map(({ file, project, ms }) => `  ${(ms / 1000).toFixed(1).padStart(7)} s  ${project.padEnd(7)} ${file}`);
  return `The ${lines.length} slowest test files:\n${lines.join('\n')}`;
}

/**
 * Every failure of the runs, a line each: printed last by `make test`, so a CI log's tail names the
 * failed test however long the logs before it were.
 */
export function failedTests(durations: FileDuration[]): string {
  const lines = durations.flatMap(({ file, project, failed }) => (failed ?? []).map((name) => `  ${project.padEnd(7)} ${file} > ${name}`));
  return lines.length === 0 ? 'No failed test recorded (a run that stopped before its end records nothing: see its exit code below).' : `Failed tests (${lines.length}):\n${lines.join('\n')}`;
}

/** The durations several runs appended to one file (`make test` runs its projects side by side). */
export function readDurations(file: string): FileDuration[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as FileDuration);
}

/**
 * Prints the slowest test files at the end of a run, so a suite that starts idling shows up in
 * every CI log instead of in a 30-minute total. With TEST_DURATIONS_FILE set, it appends every
 * file's time there instead, for one list over several runs (platform/scripts/slowest-test-files.ts).
 */
export class SlowestFilesReporter implements Reporter {
  constructor(private readonly count = 10) {}

  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<{ message?: string }> = []): void {
    const durations = testModules.map((module): FileDuration => {
      const diagnostic = module.diagnostic();
      const failed = [...module.children.allTests('failed')].map((test) => test.fullName);
      // A file or a suite can fail with no failed test: its import, or a beforeAll/afterAll, threw.
      const firstLine = (errors: ReadonlyArray<{ message?: string }>) => errors[0]?.message?.split('\n')[0] ?? 'failed';
      if (module.errors().length > 0) failed.push(`(the file) ${firstLine(module.errors())}`);
      for (const suite of module.children.allSuites()) if (suite.errors().length > 0) failed.push(`${suite.fullName} (a hook) ${firstLine(suite.errors())}`);
      return {
        file: path.relative(process.cwd(), module.moduleId),
        project: module.project.name,
        ms: diagnostic.collectDuration + diagnostic.duration,
        ...(failed.length > 0 ? { failed } : {}),
      };
    });
    // An error no test caught (a timer's, a stray promise's) fails the run too: it is listed under no file.
    if (unhandledErrors.length > 0) durations.push({ file: '(no file: unhandled errors)', project: '', ms: 0, failed: unhandledErrors.map((error) => error.message?.split('\n')[0] ?? 'unhandled error') });
    const into = process.env.TEST_DURATIONS_FILE;
    if (into) appendFileSync(into, durations.map((duration) => `${JSON.stringify(duration)}\n`).join(''));
    else if (durations.length > 0) console.log(`\n${slowestFiles(durations, this.count)}\n`);
  }
}
