/**
 * `tsx platform/scripts/slowest-test-files.ts <durations file>`: the ten slowest test files of the
 * runs that appended to the file (make test's server, browser and smoke runs), one list, then every
 * failed test of them.
 */
import { failedTests, readDurations, slowestFiles } from '../src/testing/slowest-files-reporter';

const [file] = process.argv.slice(2);
if (!file) {
  console.error('usage: slowest-test-files.ts <durations file>');
  process.exit(2);
}
const durations = readDurations(file);
console.log(slowestFiles(durations, 10));
console.log(`\n${failedTests(durations)}`);
