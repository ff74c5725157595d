import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const failing = path.join(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/processes/fail-uncaught.ts');

/** Runs the failing process to its end: its exit code and its log entries. */
async function failWith(how: 'throw' | 'reject') {
  const ended = await promisify(execFile)(process.execPath, ['--import', 'tsx', failing, how], { timeout: 60_000 }).then(
    () => ({ code: 0, stdout: '' }),
    (error: { code: number; stdout: string }) => error,
  );
  return { code: ended.code, entries: ended.stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>) };
}

// Issue 33: a process-wide last line, so a failure nobody caught is logged with where it came from
// and ends the process for its supervisor, instead of leaving it running in a state nobody knows.
describe("the process's last line", () => {
  it.each([
    ['throw', 'uncaught exception', 'a bug nobody caught'],
    ['reject', 'unhandled rejection', 'a rejection nobody handled'],
  ] as const)('logs a failure nobody handled (%s) once at fatal, with its service, correlation id and stack, and exits 1', async (how, origin, message) => {
    const { code, entries } = await failWith(how);
    expect(code).toBe(1);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ level: 60, name: 'pricing', service: 'pricing', correlationId: 'corr-last-line', origin, msg: `${origin}: the process exits for its supervisor to start it again` });
    expect((entries[0].err as { stack: string }).stack).toContain(message);
    expect((entries[0].err as { stack: string }).stack).toContain('fail-uncaught.ts');
  });
});
