import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

describe('make start', () => {
  let dataDir: string;
  afterAll(async () => {
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('stops on Ctrl-C (SIGINT to its whole process group, as a terminal sends it) without make reporting an "Interrupt"', async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'make-start-'));
    // `-o build`: the recipe alone (the build is make test's own first step).
    const make = spawn('make', ['--no-print-directory', '-o', 'build', 'start'], {
      cwd: root,
      detached: true,
      env: { ...process.env, DATA_DIR: dataDir, PORT: '0', SIMULATOR_BASE_PORT: '0', DATABASE_URL: '' },
    });
    let output = '';
    make.stdout.on('data', (chunk) => (output += chunk));
    make.stderr.on('data', (chunk) => (output += chunk));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => make.on('exit', (code, signal) => resolve({ code, signal })));
    await expect.poll(() => output, { timeout: 60_000, interval: 200 }).toContain('Back-office is running');
    process.kill(-make.pid!, 'SIGINT');
    // make, itself interrupted, waits for the launcher and then ends by the same signal, as GNU make
    // does; it reports "*** [start] Interrupt" only when its recipe died of the signal (npx did).
    expect([{ code: 0, signal: null }, { code: null, signal: 'SIGINT' }]).toContainEqual(await exited);
    expect(output).not.toMatch(/Interrupt|\*\*\*/);
    // Not a terminal here: the logs stay JSON lines.
    expect(output.split('\n').filter((line) => line.startsWith('{')).every((line) => JSON.parse(line).level !== undefined)).toBe(true);
  }, 90_000);
});
