import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/**
 * Prints the slowest test files at the end of a run (time from import to the last hook), so a
 * suite that starts idling shows up in every CI log instead of in a 30-minute total.
 */
export class SlowestFilesReporter implements Reporter {
  constructor(private readonly count = 10) {}

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const timed = testModules
      .map((module) => {
        const diagnostic = module.diagnostic();
        return { file: path.relative(process.cwd(), module.moduleId), project: module.project.name, ms: diagnostic.collectDuration + diagnostic.duration };
      })
      .sort((a, b) => b.ms - a.ms)
      .slice(0, this.count);
    if (timed.length === 0) return;
    const lines = timed.map(({ file, project, ms }) => `  ${(ms / 1000).toFixed(1).padStart(7)} s  ${project.padEnd(7)} ${file}`);
    console.log(`\nThe ${timed.length} slowest test files:\n${lines.join('\n')}\n`);
  }
}
