import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { IDENTITY_HEADER } from '@bo/platform';
import { loadServiceDefinition, type ServiceDefinition } from '@bo/platform/service';
import { bundleServices, serviceNodeArgs } from '@bo/platform/scripts/service-bundle';
import { domainServiceNames, registryEntry, urlVariableOf, type DomainServiceName, type ServiceName } from '@bo/proto';
import { freePort } from '@bo/sim-kit';
import { configureChatFlow } from './chat-flow';
import { dataEncryptionEnvOf, identityEnvOf, loadOrCreateSecrets, serviceSecretsEnvOf, signerOf } from './secrets';
import { startSimulators, type RunningSimulators } from './simulators';
import { startAll } from './start-all';
import { supervise, type SupervisedProcess } from './supervisor';


export interface DistributedOptions {
  /** PostgreSQL, Redis and RabbitMQ of this machine by default. */
  databaseUrl?: string;
  redisUrl?: string;
  amqpUrl?: string;
  /** The gateway's port; 0 picks a free one. */
  port?: number;
  /** Services listen on their registry ports, or on free ports (tests). */
  freeServicePorts?: boolean;
  simulatorBasePort?: number;
  /** Where the simulators' state and the generated secrets live. */
  dataDir?: string;
  adminEmails?: string[];
  /** Hide the processes' own output (tests). */
  quiet?: boolean;
  /** Where the launcher says that a process failed and was started again (standard error by default). */
  log?: (line: string) => void;
  /** Settings a service gets over the common ones, e.g. `{ 'streaming-keys': { CODE_FETCH_KEY_INTERVAL_MS: '1' } }` for a benchmark. */
  environment?: Partial<Record<DomainServiceName, Record<string, string>>>;
}

export interface DistributedSystem {
  url: string;
  /** The gateway's operations port (/ready, /metrics). */
  opsUrl: string;
  /** Each process as it runs now: one that fails is started again (a new child), one that exits 0 stays stopped. */
  processes: Record<ServiceName, ChildProcess>;
  /** How many times each process was started again after a failure. */
  restarts(name: ServiceName): number;
  /** Where each domain service listens (`<NAME>_URL`), for tests that call a service directly. */
  serviceUrls: Record<DomainServiceName, string>;
  simulators: RunningSimulators;
  stop(): Promise<void>;
}

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const START_TIMEOUT_MS = 120_000;
/** Lines of a quiet process's output kept to say what it said last when it fails. */
const LAST_WORDS_LINES = 5;

/** Creates the database named in the URL when it does not exist yet (a fresh machine). */
async function ensureDatabase(url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  const server = new URL(url);
  server.pathname = '/postgres';
  const client = new pg.Client({ connectionString: server.toString() });
  client.on('error', () => {}); // a connection lost meanwhile fails the query below instead
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (rowCount === 0) await client.query(`CREATE DATABASE "${name.replaceAll('"', '""')}"`);
  } finally {
    await client.end();
  }
}

const lastWordsOf = new WeakMap<ChildProcess, () => string>();

/** Starts one process the way its container does, and waits until its /health answers. */
async function startProcess(definition: ServiceDefinition, env: Record<string, string>, quiet: boolean): Promise<ChildProcess> {
  const { name } = definition;
  // With BENCH_CPU_PROFILE_DIR set (as bench/children.ts reads it), a V8 CPU profile of the process, written when it stops.
  const profileDir = process.env.BENCH_CPU_PROFILE_DIR;
  const profile = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${path.join(profileDir, name)}`] : [];
  const child = spawn(process.execPath, [...profile, ...serviceNodeArgs(definition)], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', quiet ? 'pipe' : 'inherit', quiet ? 'pipe' : 'inherit'],
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  // A quiet process's last log lines (its fatal one among them), for the supervisor's line when it fails.
  const said: string[] = [];
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    said.push(...chunk.split('\n').filter(Boolean));
    said.splice(0, Math.max(0, said.length - LAST_WORDS_LINES));
  });
  lastWordsOf.set(child, () => said.join('\n'));
  const url = `http://127.0.0.1:${env.PORT}/health`;
  // Every process compiles and migrates at once on however many cores there are: give each time.
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${name} exited at start (${child.signalCode ?? `code ${child.exitCode}`}):\n${stderr}`);
    // Its own /health, naming it: a port picked free a moment ago may have been taken by another process since.
    const ok = await fetch(url).then(async (response) => response.ok && ((await response.json()) as { service?: string }).service === name, () => false);
    if (ok) return child;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`${name} did not answer ${url} within ${START_TIMEOUT_MS / 1000} s:\n${stderr}`);
}

/**
 * The distributed topology on one machine: every service of the registry and the gateway as
 * separate processes, with the commands their containers run, against this machine's
 * PostgreSQL, Redis and RabbitMQ, plus the simulators (in this process).
 */
export async function startDistributed(options: DistributedOptions = {}): Promise<DistributedSystem> {
  const dataDir = path.resolve(options.dataDir ?? path.join(repoRoot, 'data-distributed'));
  await mkdir(dataDir, { recursive: true });
  const secrets = await loadOrCreateSecrets(dataDir);
  const databaseUrl = options.databaseUrl ?? 'postgres://postgres@127.0.0.1:5432/backoffice';
  await ensureDatabase(databaseUrl);
  const port = options.port === 0 ? await freePort() : (options.port ?? registryEntry('gateway').port);
  const opsPort = await freePort();
  const publicUrl = `http://localhost:${port}`;
  const quiet = options.quiet ?? false;
  // Each process runs its bundle, as its container does: made from the sources now, so it is never older than them.
  await bundleServices();
  const supervised: Partial<Record<ServiceName, SupervisedProcess>> = {};
  const processes = {} as Record<ServiceName, ChildProcess>;
  const log = options.log ?? ((line: string) => console.error(line));
  const simulators = await startSimulators({ dataDir, basePort: options.simulatorBasePort ?? 4101, publicUrl, oidcClientSecret: secrets.oidcClientSecret });
  const stop = async () => {
    // The gateway first, so nothing new reaches a service that is stopping.
    for (const name of ['gateway', ...[...domainServiceNames].reverse()] as ServiceName[]) await supervised[name]?.stop();
    await simulators.stop();
  };
  // Each process is kept running as a container runtime keeps it (restarted after a failure);
  // `processes` always names the one running now.
  const run = async (definition: ServiceDefinition, env: Record<string, string>) => {
    const name = definition.name as ServiceName;
    supervised[name] = await supervise({ name, start: () => startProcess(definition, env, quiet), log, lastWords: (child) => lastWordsOf.get(child)?.() ?? '' });
    Object.defineProperty(processes, name, { enumerable: true, get: () => supervised[name]!.child });
  };

  try {
    const common = {
      NODE_ENV: 'production',
      LOG_LEVEL: quiet ? 'warn' : 'info',
      HOST: '127.0.0.1',
      ...dataEncryptionEnvOf(secrets),
      PUBLIC_URL: publicUrl,
      DATABASE_URL: databaseUrl,
      REDIS_URL: options.redisUrl ?? 'redis://127.0.0.1:6379',
      AMQP_URL: options.amqpUrl ?? 'amqp://guest:guest@127.0.0.1:5672',
    };
    // Ports first, so every process gets every service's URL (services call each other).
    const ports = Object.fromEntries(await Promise.all(domainServiceNames.map(async (name) => [name, options.freeServicePorts ? await freePort() : registryEntry(name).port] as const)));
    const serviceUrls = Object.fromEntries(domainServiceNames.map((name) => [urlVariableOf(name), `http://127.0.0.1:${ports[name]}`]));
    // All at once: each process spends most of its start compiling and migrating on its own.
    await startAll(
      domainServiceNames.map(async (name) => {
        const definition = await loadServiceDefinition(name);
        await run(definition, { ...common, ...serviceSecretsEnvOf(secrets, name), ...serviceUrls, ...definition.simulatorEnv(simulators.urls), PORT: String(ports[name]), ...options.environment?.[name] });
      }),
    );
    // The ManyChat simulator's payment step gets the secret payments checks now (a database kept from an earlier run may hold a rotated one).
    if (simulators.urls.manychat) {
      const reveal = await fetch(`http://127.0.0.1:${ports.payments}/api/qpay/webhook-secret/reveal`, {
        method: 'POST',
        // The launcher stands in for the gateway here: the operator's own tool, holding every process's key.
        headers: { [IDENTITY_HEADER]: signerOf(secrets, 'gateway').sign({ kind: 'admin', userId: 'distributed-launcher', email: null, isAdmin: true, keyId: null }) },
      });
      if (!reveal.ok) throw new Error(`payments did not give the chat webhook secret: ${reveal.status} ${await reveal.text()}`);
      await configureChatFlow(simulators.urls.manychat, publicUrl, ((await reveal.json()) as { secret: string }).secret);
    }
    const gateway = await loadServiceDefinition('gateway');
    await run(
      gateway,
      {
        ...common,
        ...identityEnvOf(secrets, 'gateway'),
        ...gateway.simulatorEnv(simulators.urls),
        ...serviceUrls,
        PORT: String(port),
        OPS_PORT: String(opsPort),
        PUBLIC_URL: publicUrl,
        SESSION_SECRET: secrets.sessionSecret,
        OIDC_CLIENT_SECRET: secrets.oidcClientSecret,
        ADMIN_EMAILS: (options.adminEmails ?? ['admin@example.com']).join(','),
        WEB_DIST_DIR: path.join(repoRoot, 'web/dist'),
      },
    );
    return {
      url: publicUrl,
      opsUrl: `http://127.0.0.1:${opsPort}`,
      processes,
      restarts: (name) => supervised[name]?.restarts ?? 0,
      serviceUrls: Object.fromEntries(domainServiceNames.map((name) => [name, `http://127.0.0.1:${ports[name]}`])) as Record<DomainServiceName, string>,
      simulators,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
