import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createTestDatabase } from '@bo/platform/testing/database';
import { createTestVhost } from '@bo/platform/testing/rabbitmq';
import { freePort } from '@bo/sim-kit';
import { afterAll, describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const run = promisify(execFile);
const copies: string[] = [];

/**
 * What a fresh clone has: the repository's files as they would be committed (tracked and new
 * ones, none of the build's output), in a temporary folder. node_modules is linked in from this
 * checkout (hard links, seconds instead of a minute of `npm ci`): installing is the one step every
 * command shares, and CI's own first command on its clean clone (`make test`) proves it; what a
 * command must not take for granted is everything after it (Prisma clients, the web build).
 */
async function freshCopy(): Promise<string> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'fresh-clone-'));
  copies.push(folder);
  await run('bash', ['-c', `git ls-files -z --cached --others --exclude-standard | xargs -0 sh -c 'for f; do [ -e "$f" ] && printf "%s\\0" "$f"; done' _ | tar --null -T - -cf - | tar -xf - -C "${folder}"`], { cwd: root, maxBuffer: 64 * 1024 * 1024 });
  await run('cp', ['-al', path.join(root, 'node_modules'), path.join(folder, 'node_modules')]);
  return folder;
}

/** Runs `make <args>` in `cwd` until `done` shows in its output, then Ctrl-C (SIGINT to its process group, as a terminal sends it). */
async function runUntil(cwd: string, args: string[], env: Record<string, string>, done: string): Promise<{ output: string; exit: { code: number | null; signal: NodeJS.Signals | null } }> {
  const make = spawn('make', ['--no-print-directory', ...args], { cwd, detached: true, env: { ...process.env, ...env } });
  let output = '';
  make.stdout.on('data', (chunk) => (output += chunk));
  make.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => make.on('exit', (code, signal) => resolve({ code, signal })));
  const finished = await new Promise<boolean>((resolve) => {
    const timer = setInterval(() => output.includes(done) && (clearInterval(timer), resolve(true)), 200);
    void exited.then(() => (clearInterval(timer), resolve(output.includes(done))));
  });
  if (!finished) throw new Error(`make ${args.join(' ')} ended without "${done}":\n${output}`);
  process.kill(-make.pid!, 'SIGINT');
  return { output, exit: await exited };
}

// A make target that quits because of Ctrl-C ends by the same signal (GNU make) or 0 (our launcher);
// make reports "*** [start] Interrupt" only when its recipe died of the signal.
const cleanStop = [{ code: 0, signal: null }, { code: null, signal: 'SIGINT' }];

describe('the README commands as the first command on a fresh clone', () => {
  afterAll(async () => {
    for (const folder of copies) await rm(folder, { recursive: true, force: true });
  });

  it('make create-admin makes the account before anything was built or started', async () => {
    const clone = await freshCopy();
    const { stdout } = await run('make', ['--no-print-directory', 'create-admin', 'USERNAME=ops', 'PASSWORD=a long enough password'], { cwd: clone, env: { ...process.env, DATABASE_URL: '', DATA_DIR: '' }, maxBuffer: 16 * 1024 * 1024 });
    expect(stdout).toContain('The embedded system is not running; starting its database');
    expect(stdout).toContain('Local admin "ops" is ready');
  }, 180_000);

  it('make deploy-files renders the files the repository holds', async () => {
    const clone = await freshCopy();
    await run('make', ['--no-print-directory', 'deploy-files'], { cwd: clone, maxBuffer: 16 * 1024 * 1024 });
    for (const file of ['docker-compose.yml', 'deploy/kubernetes/services.yaml', 'deploy/kubernetes/secrets.example.yaml']) {
      expect(await readFile(path.join(clone, file), 'utf8'), file).toBe(await readFile(path.join(root, file), 'utf8'));
    }
  }, 180_000);

  it('make start builds, runs and stops on Ctrl-C; then make start-distributed lists its simulators on SIMULATOR_BASE_PORT', async () => {
    const clone = await freshCopy();
    const embedded = await runUntil(clone, ['start'], { PORT: '0', SIMULATOR_BASE_PORT: '0', DATABASE_URL: '', DATA_DIR: '' }, 'Back-office is running');
    expect(cleanStop).toContainEqual(embedded.exit);
    expect(embedded.output).not.toMatch(/Interrupt|\*\*\*/);
    // Not a terminal here: the logs stay JSON lines.
    expect(embedded.output.split('\n').filter((line) => line.startsWith('{')).every((line) => JSON.parse(line).level !== undefined)).toBe(true);

    const database = await createTestDatabase('fresh_clone');
    const vhost = await createTestVhost('fresh-clone');
    try {
      const base = await freePort();
      const distributed = await runUntil(
        clone,
        ['start-distributed'],
        { PORT: '0', SIMULATOR_BASE_PORT: String(base), DATABASE_URL: database.url, AMQP_URL: vhost.url, REDIS_URL: 'redis://127.0.0.1:6379/9' },
        'Stop:      Ctrl-C',
      );
      const names = ['sheets', 'oidc', 'woocommerce', 'qpay', 'manychat', 'openai', 'marketplace', 'mailbox'];
      for (const [index, name] of names.entries()) expect(distributed.output).toMatch(new RegExp(`${name}\\s+(http://127\\.0\\.0\\.1:${base + index}/__sim/|not running: )`));
      expect(cleanStop).toContainEqual(distributed.exit);
    } finally {
      await vhost.delete();
      await database.drop();
    }
  }, 300_000);
});
