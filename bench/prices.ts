import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import autocannon, { type Options, type Result } from 'autocannon';
import { formatPublicKeys, generateIdentityKeyPair } from '@bo/platform';
import { domainServiceNames, urlVariableOf } from '@bo/proto';
import { createTestDatabase, type TestDatabase } from '@bo/platform/testing/database';
import { freePort } from '@bo/sim-kit';
import { startChild, stopChild, type Child } from './children';
import { modeLine, scaled } from './mode';
import { between, processCpuMs, snapshot, type ServerView } from './server-view';

/**
 * `make bench`: GET /api/prices through the gateway (a kept public read), straight at the pricing
 * service, and at bare Fastify (a small JSON, and the gateway's very bytes), each server in its
 * own process; then a fixed 1,000 req/s through the gateway. The gateway is judged against bare
 * Fastify sending the same bytes, the two measured in turns. Targets are printed beside the
 * figures, not asserted; the exit code is 1 only when something failed to start.
 */

const SATURATE = { connections: 50, duration: scaled(10, 2), pipelining: 1, warmup: { connections: 50, duration: scaled(2, 1) } } satisfies Partial<Options>;
/**
 * The gateway and bare Fastify sending its answer are measured in turns: a warm-up of each, then
 * ROUNDS rounds of one run each, so whatever else the machine does at a moment falls on all; the
 * ratios are the median round's.
 */
const ROUNDS = 3;
const ROUND = { connections: 50, duration: scaled(4, 1), pipelining: 1 } satisfies Partial<Options>;
const WARM_UP = { ...ROUND, duration: scaled(2, 1) } satisfies Partial<Options>;
const FIXED_RATE = { overallRate: 1_000, connections: 20, duration: scaled(10, 2), pipelining: 1, warmup: { connections: 20, duration: scaled(2, 1) } } satisfies Partial<Options>;
const TARGET_P99_MS = 10;
/** Issue 19: the gateway's cached read answers at least half as many requests a second as bare Fastify... */
const TARGET_BARE_RATIO = 0.5;
/** ...and spends at most 1.5 times bare Fastify's CPU on each. */
const TARGET_CPU_RATIO = 1.5;
/** Headers every server writes for itself, or that belong to one request (the gateway's correlation id): not part of the kept response. */
const PER_RESPONSE_HEADERS = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding', 'x-correlation-id']);
/** The services this bench does not start: a port nothing listens on (the gateway answers 503 for them). */
const NOT_STARTED = 'http://127.0.0.1:9';
/** Above the default, so unrelated work on the machine disturbs the measured processes less. */
const BENCH_NICENESS = -10;

/** Raises this process's priority (the children inherit it) when allowed; says what it got. */
function raisePriority(): string {
  try {
    os.setPriority(BENCH_NICENESS);
    return `niceness ${BENCH_NICENESS}`;
  } catch {
    return `niceness ${os.getPriority()} (raising it was not permitted)`;
  }
}

interface Run {
  result: Result;
  /** The server's CPU time per answered request in the run, in µs; null off Linux. */
  cpuPerRequestUs: number | null;
}

interface Row extends Run {
  name: string;
  /** For a target measured in rounds, each round's run. */
  rounds?: Run[];
}

/** Runs autocannon at `url` and measures the CPU time the server process `pid` spent meanwhile (a warm-up, if any, counted in both). */
async function run(url: string, pid: number, options: Partial<Options>): Promise<Run> {
  const cpuBefore = await processCpuMs(pid);
  const result = await autocannon({ url, ...options });
  const cpuAfter = await processCpuMs(pid);
  const answered = result.requests.total + (result.warmup?.requests.total ?? 0);
  const cpuPerRequestUs = cpuBefore === null || cpuAfter === null ? null : ((cpuAfter - cpuBefore) * 1000) / answered;
  return { result, cpuPerRequestUs };
}

interface Target {
  name: string;
  url: string;
  pid: number;
}

/** One run at saturation, its warm-up included. */
async function measure({ name, url, pid }: Target): Promise<Row> {
  console.error(`bench: ${name} ...`);
  return { name, ...(await run(url, pid, SATURATE)) };
}

/** The targets in turns (see ROUNDS); each row's figures are its median round's, by requests a second. */
async function measureInTurns(targets: Target[]): Promise<Row[]> {
  console.error(`bench: ${targets.map((target) => target.name).join(', ')}: warm-up, then ${ROUNDS} rounds in turns ...`);
  for (const target of targets) await autocannon({ url: target.url, ...WARM_UP });
  const runs = targets.map((): Run[] => []);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [n, target] of targets.entries()) runs[n].push(await run(target.url, target.pid, ROUND));
  }
  return targets.map(({ name }, n) => ({ name, ...median(runs[n], (one) => one.result.requests.average), rounds: runs[n] }));
}

function median<T>(values: T[], by: (value: T) => number): T {
  return [...values].sort((x, y) => by(x) - by(y))[Math.floor(values.length / 2)];
}

async function startSystem(database: TestDatabase, children: Child[], workDir: string) {
  const keys = { gateway: generateIdentityKeyPair(), pricing: generateIdentityKeyPair() };
  const shared = { IDENTITY_PUBLIC_KEYS: formatPublicKeys(keys), LOG_LEVEL: 'warn', REDIS_URL: 'redis://127.0.0.1:6379', AMQP_URL: 'amqp://guest:guest@127.0.0.1:5672', DATABASE_URL: database.url };
  const started = async (...args: Parameters<typeof startChild>) => {
    const child = await startChild(...args);
    children.push(child);
    return child;
  };
  const sheets = await started('sheets simulator', 'simulators/google-sheets/src/main.ts', {}, '/__sim/health');
  const pricing = await started('pricing', 'services/pricing/src/main.ts', {
    ...shared,
    IDENTITY_PRIVATE_KEY: keys.pricing.privateKey,
    GOOGLE_SHEETS_SPREADSHEET_ID: 'sim-price-list',
    GOOGLE_SERVICE_ACCOUNT_URL: `${sheets.url}/__sim/service-account`,
    GOOGLE_SHEETS_ROOT_URL: sheets.url,
  });
  const opsPort = await freePort();
  const gateway = await started('gateway', 'gateway/src/main.ts', {
    ...shared,
    IDENTITY_PRIVATE_KEY: keys.gateway.privateKey,
    OPS_PORT: String(opsPort),
    ...Object.fromEntries(domainServiceNames.map((name) => [urlVariableOf(name), NOT_STARTED])),
    PRICING_URL: pricing.url,
    PUBLIC_URL: 'http://127.0.0.1:5000', // only cookie flags and Origin checks read it; the bench sends neither
    SESSION_SECRET: randomBytes(32).toString('hex'),
  });
  let answer = Buffer.alloc(0);
  let headers: Record<string, string> = {};
  for (const url of [`${pricing.url}/api/prices`, `${gateway.url}/api/prices`, `${gateway.url}/api/prices`]) {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`warm-up GET ${url} answered ${response.status}: ${await response.text()}`);
    answer = Buffer.from(await response.arrayBuffer());
    headers = Object.fromEntries([...(response.headers as unknown as Iterable<[string, string]>)].filter(([name]) => !PER_RESPONSE_HEADERS.has(name)));
  }
  // The bare server also answers the gateway's very bytes (GET /answer), and with its headers (GET
  // /response): what the answer's size, and the whole response, cost any server.
  const answerFile = path.join(workDir, 'answer.json');
  const headersFile = path.join(workDir, 'headers.json');
  await writeFile(answerFile, answer);
  await writeFile(headersFile, JSON.stringify(headers));
  const bare = await started('bare fastify', 'bench/hello.ts', { BARE_ANSWER_FILE: answerFile, BARE_RESPONSE_HEADERS_FILE: headersFile });
  // The gateway shows /metrics on its operations port only.
  return { bare, pricing, gateway, gatewayOps: `http://127.0.0.1:${opsPort}`, answerBytes: answer.length };
}

const ms = (value: number) => `${value.toFixed(1)} ms`;
const us = (value: number | null) => (value === null ? 'n/a' : `${Math.round(value)} µs`);
const percent = (part: number, whole: number) => `${((100 * part) / Math.max(whole, 1)).toFixed(2)}%`;
const failures = (r: Result) => `${r.errors} / ${r.non2xx}`;

interface Measured {
  hello: Row;
  /** Bare Fastify sending the gateway's answer with its own headers: what the body costs. */
  answer: Row;
  /** Bare Fastify sending the gateway's whole kept response (the judged baseline). */
  response: Row;
  direct: Row;
  gateway: Row;
}

function report({ hello, answer, response, direct, gateway }: Measured, answerBytes: number, fixed: Result, fixedBare: Result, seen: ServerView, context: string): void {
  const rate = (one: Run) => one.result.requests.average;
  const cpuRatio = (of: Run, at: Run) => (of.cpuPerRequestUs && at.cpuPerRequestUs ? at.cpuPerRequestUs / of.cpuPerRequestUs : null);
  const verdict = (met: boolean) => (met ? 'met' : 'NOT met');
  const figure = (value: number | null) => (value === null ? 'n/a' : value.toFixed(2));
  // Each round's gateway against the same round's bare Fastify, then the median round.
  const inTurns = (of: Row) => {
    const turns = gateway.rounds!.map((round, n) => ({ rate: rate(round) / rate(of.rounds![n]), cpu: cpuRatio(of.rounds![n], round) }));
    const cpus = turns.map((turn) => turn.cpu);
    return {
      byRound: `req/s ${turns.map((turn) => figure(turn.rate)).join(', ')}; CPU per request ${cpus.map(figure).join(', ')}`,
      rate: median(turns, (turn) => turn.rate).rate,
      cpu: cpus.every((cpu) => cpu !== null) ? median(cpus as number[], (cpu) => cpu) : null,
    };
  };
  const judged = inTurns(response);
  const bodyOnly = inTurns(answer);
  const name = (row: Row) => (row.rounds ? `${row.name} (median of ${row.rounds.length} rounds)` : row.name);
  const lines = [
    modeLine(),
    `GET /api/prices (${answerBytes} bytes of JSON), -c ${SATURATE.connections}, no pipelining: the gateway and bare Fastify with its answer in ${ROUNDS} rounds of ${ROUND.duration} s in turns`,
    `after a ${WARM_UP.duration} s warm-up each; the others -d ${SATURATE.duration} with a ${SATURATE.warmup.duration} s warm-up`,
    '',
    `| target | req/s | p50 | p99 | errors / non-2xx | server CPU per request |`,
    `| --- | ---: | ---: | ---: | ---: | ---: |`,
    ...[hello, answer, response, direct, gateway].map((row) => `| ${name(row)} | ${Math.round(rate(row))} | ${ms(row.result.latency.p50)} | ${ms(row.result.latency.p99)} | ${failures(row.result)} | ${us(row.cpuPerRequestUs)} |`),
    ...[
      { label: 'gateway GET /api/prices', r: fixed },
      { label: `${response.name} (control)`, r: fixedBare },
    ].map(({ label, r }) => `| ${label} at a fixed ${FIXED_RATE.overallRate} req/s (-c ${FIXED_RATE.connections} -d ${FIXED_RATE.duration}) | ${Math.round(r.requests.average)} | ${ms(r.latency.p50)} | ${ms(r.latency.p99)} | ${failures(r)} | |`),
    '',
    // Judged against bare Fastify sending the very response the gateway keeps (helmet's headers and
    // the body): what that response costs any server is not the gateway's doing.
    `gateway / ${response.name}, by round: ${judged.byRound}`,
    `gateway / ${response.name} req/s: ${figure(judged.rate)}  (median round; target >= ${TARGET_BARE_RATIO}: ${verdict(judged.rate >= TARGET_BARE_RATIO)})`,
    `gateway / ${response.name} CPU per request: ${figure(judged.cpu)}  (median round; target <= ${TARGET_CPU_RATIO}: ${judged.cpu === null ? 'n/a' : verdict(judged.cpu <= TARGET_CPU_RATIO)})`,
    `gateway / ${answer.name}, by round: ${bodyOnly.byRound}; median req/s ${figure(bodyOnly.rate)}, CPU per request ${figure(bodyOnly.cpu)}`,
    `gateway / ${hello.name} req/s: ${figure(rate(gateway) / rate(hello))}, CPU per request: ${figure(cpuRatio(hello, gateway))}`,
    `gateway / ${direct.name} req/s: ${figure(rate(gateway) / rate(direct))}`,
    `fixed-rate p99:   ${ms(fixed.latency.p99)}, ${fixed.errors + fixed.non2xx + fixed.timeouts} failed  (target < ${TARGET_P99_MS} ms, none failed: ${verdict(fixed.latency.p99 < TARGET_P99_MS && fixed.errors + fixed.non2xx + fixed.timeouts === 0)})`,
    `the gateway's own view of that fixed-rate run (warm-up included): ${seen.answered} answers, ${percent(seen.within1ms, seen.answered)} within 1 ms and ${percent(seen.within10ms, seen.answered)} within 10 ms` +
      ' of its own time' +
      (seen.cpuMs === null ? '' : `; its main thread ran ${Math.round(seen.cpuMs)} ms and waited ${Math.round(seen.waitedMs!)} ms for a free core`),
    '',
    `Node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? 'unknown'}), ${context}.`,
    'The load generator runs on the same cores as the servers it measures, so every figure is a lower bound and ratios are the comparable part;',
    'a load average well above 0 before the run means other work shared the cores too.',
  ];
  console.log(lines.join('\n'));
}

async function main(): Promise<number> {
  const context = `${raisePriority()}, load average before the run ${os.loadavg()[0].toFixed(2)}`;
  const children: Child[] = [];
  const database = await createTestDatabase('bench');
  const workDir = await mkdtemp(path.join(os.tmpdir(), 'bench-prices-'));
  let cleaning: Promise<void> | null = null;
  const cleanUp = () =>
    (cleaning ??= (async () => {
      for (const child of children.reverse()) await stopChild(child);
      await database.drop();
      await rm(workDir, { recursive: true, force: true });
    })());
  // Ctrl-C or a kill still stops the children and drops the database.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void cleanUp().finally(() => process.exit(130)));
  try {
    let system: Awaited<ReturnType<typeof startSystem>>;
    try {
      system = await startSystem(database, children, workDir);
    } catch (error) {
      console.error(`bench: start-up failed: ${(error as Error).message}`);
      return 1;
    }
    const bare = system.bare.process.pid!;
    const hello = await measure({ name: 'bare fastify GET / (small JSON)', url: `${system.bare.url}/`, pid: bare });
    const direct = await measure({ name: 'pricing direct GET /api/prices', url: `${system.pricing.url}/api/prices`, pid: system.pricing.process.pid! });
    const [answer, response, gateway] = await measureInTurns([
      { name: 'bare fastify, the same answer', url: `${system.bare.url}/answer`, pid: bare },
      { name: 'bare fastify, the same response', url: `${system.bare.url}/response`, pid: bare },
      { name: 'gateway GET /api/prices', url: `${system.gateway.url}/api/prices`, pid: system.gateway.process.pid! },
    ]);
    const measured: Measured = { hello, answer, response, direct, gateway };
    console.error('bench: gateway, then bare, at a fixed rate ...');
    const before = await snapshot(system.gatewayOps, system.gateway.process.pid!, '/api/*');
    const fixed = await autocannon({ url: `${system.gateway.url}/api/prices`, ...FIXED_RATE });
    const seen = between(before, await snapshot(system.gatewayOps, system.gateway.process.pid!, '/api/*'));
    // The same rate at the bare server: a p99 it cannot meet either comes from the machine, not the gateway.
    const fixedBare = await autocannon({ url: `${system.bare.url}/response`, ...FIXED_RATE });
    report(measured, system.answerBytes, fixed, fixedBare, seen, context);
    return 0;
  } finally {
    await cleanUp();
  }
}

process.exitCode = await main();
