import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allRoutes, domainServiceNames, schemaOf, type AnyRouteContract } from '@bo/proto';
import { matchRoute } from '@bo/gateway/routing-table';
import { DEFAULT_ACCOUNTS } from '@bo/sim-mailbox/seed';
import { startEmbedded, type EmbeddedSystem } from '../src/launcher';
import { hostileRequests, type HostileRequest } from './support/hostile-requests';

/**
 * Issue 18 §2, proven on the whole system (every service, the gateway, the simulators, in this
 * process): for every route the gateway serves or forwards, hostile variants of its contract's
 * example, sent with the session its access needs. None may answer 5xx; the contract's promises
 * (a 400 naming the field, 413 for size) must hold; and a refused request must change nothing and
 * call nothing outside: a trigger on every table of every service records writes, and the
 * simulators' journals (HTTP, and the mailbox's IMAP sign-ins) record outside calls.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const ADMIN = { username: 'fuzz-admin', password: 'a long fuzz password' };
/** The customer's key is a profile of a mailbox the simulator holds, its password set: a valid fetch reads it. */
const [CUSTOMER_MAILBOX] = DEFAULT_ACCOUNTS;
const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/**
 * Answers that refuse the request itself (its input, its caller, its size, its rate): nothing may
 * be written or called for them. Other 4xx are lookups answering "not found" or "conflict": they
 * write nothing either, and may only have read (GET) an outside system to know.
 */
const REFUSALS = new Set([400, 401, 403, 405, 413, 415, 429]);
/** Log tables whose purpose is to record requests, refused ones included; sessions are touched by every signed-in request. */
const RECORDS_REQUESTS = new Set(['gateway.api_requests', 'gateway.api_request_hours', 'gateway.sessions', 'payments.qpay_webhook_logs', 'streaming_keys.code_fetches']);
/** Signing out would end the sessions the other cases use: these are sent anonymously. */
const ENDS_SESSIONS = new Set(['/api/logout', '/api/admin/logout', '/api/customer/logout']);
/** A user id no account has: the example's `local:1` could be the fuzzing admin itself. */
const BASE_PARAMS: Record<string, Record<string, string>> = { '/api/admin/users/:id/disable': { id: 'local:999999' }, '/api/admin/users/:id/terminate-sessions': { id: 'local:999999' } };

interface Session {
  cookie: string;
  csrf: string;
}

let dataDir: string;
let system: EmbeddedSystem;
let db: pg.Client;
let admin: Session;
let customer: Session;

async function signIn(url: string, body: unknown): Promise<Session> {
  const response = await fetch(`${system.url}${url}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  const cookie = response.headers.getSetCookie().map((set) => set.split(';')[0]).join('; ');
  const { token } = (await (await fetch(`${system.url}/api/auth/csrf`, { headers: { cookie } })).json()) as { token: string };
  return { cookie, csrf: token };
}

/** Every base table of every service schema, less the request logs, gets a trigger that records each written row. */
async function auditWrites(): Promise<string[]> {
  await db.query(`CREATE SCHEMA fuzz_audit;
    CREATE TABLE fuzz_audit.writes (id bigserial PRIMARY KEY, tbl text NOT NULL, op text NOT NULL);
    CREATE FUNCTION fuzz_audit.record() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        -- A schedule's own ticks and runs (the gateway's session sweep every 10 minutes) are nobody's request.
        IF TG_TABLE_NAME = 'schedules' THEN RETURN NULL; END IF;
        -- Nor the alert check's (each minute, docs/alerts.md): its alerts and every process's breaker reports.
        IF TG_TABLE_NAME IN ('alerts', 'breaker_reports') THEN RETURN NULL; END IF;
        IF TG_TABLE_NAME = 'runs' THEN
          IF (CASE TG_OP WHEN 'DELETE' THEN OLD.schedule ELSE NEW.schedule END) IS NOT NULL THEN RETURN NULL; END IF;
        END IF;
        -- Nor are the progress events those runs publish (every service's hourly sweep at minute 7, at once),
        -- nor the alert changes the alert check publishes and notifications takes in (with no subscriber set, it sends none).
        IF TG_TABLE_NAME = 'outbox_events' AND TG_OP <> 'DELETE' THEN
          IF NEW.name LIKE '%.run.progress' AND NEW.payload ->> 'schedule' IS NOT NULL THEN RETURN NULL; END IF;
          IF NEW.name LIKE '%.alert.changed' THEN RETURN NULL; END IF;
        END IF;
        -- (Nested: a condition on NEW's fields is only evaluated for the tables that have them.)
        IF TG_TABLE_NAME = 'inbox_events' AND TG_OP <> 'DELETE' THEN
          IF NEW.name LIKE '%.alert.changed' THEN RETURN NULL; END IF;
        END IF;
        IF TG_TABLE_NAME = 'applied_revisions' AND TG_OP <> 'DELETE' THEN
          IF NEW.entity = 'alert' THEN RETURN NULL; END IF;
        END IF;
        INSERT INTO fuzz_audit.writes (tbl, op) VALUES (TG_TABLE_SCHEMA || '.' || TG_TABLE_NAME, TG_OP); RETURN NULL;
      END $$;`);
  const schemas = ['gateway', ...domainServiceNames.map((name) => schemaOf(name))];
  const { rows } = await db.query<{ name: string }>(
    `SELECT table_schema || '.' || table_name AS name FROM information_schema.tables WHERE table_type = 'BASE TABLE' AND table_schema = ANY($1) ORDER BY 1`,
    [schemas],
  );
  const audited = rows.map((row) => row.name).filter((name) => !RECORDS_REQUESTS.has(name));
  for (const name of audited) {
    const [schema, table] = name.split('.');
    await db.query(`CREATE TRIGGER fuzz_audit AFTER INSERT OR UPDATE OR DELETE ON "${schema}"."${table}" FOR EACH ROW EXECUTE FUNCTION fuzz_audit.record()`);
  }
  return audited;
}

type Mark = { write: number; outside: Record<string, number> };

/** Where the system stands: the last recorded write, and how many requests each simulator has received (and the mail server's IMAP sign-ins). */
async function mark(): Promise<Mark> {
  const { rows } = await db.query<{ id: string }>('SELECT coalesce(max(id), 0) AS id FROM fuzz_audit.writes');
  const journals = Object.entries(system.simulators).flatMap(([name, sim]) => [
    (async () => [name, ((await (await fetch(`${sim!.url}/__sim/requests?limit=0`)).json()) as { total: number }).total] as const)(),
    ...(name === 'mailbox' ? [(async () => ['imap', ((await (await fetch(`${sim!.url}/__sim/sign-ins`)).json()) as { signIns: unknown[] }).signIns.length] as const)()] : []),
  ]);
  return { write: Number(rows[0].id), outside: Object.fromEntries(await Promise.all(journals)) };
}

const changed = (before: Mark, after: Mark) => after.write !== before.write || Object.keys(after.outside).some((name) => after.outside[name] !== before.outside[name]);

/** The outside calls made between two marks, as `simulator METHOD url` (IMAP sign-ins as `imap LOGIN`). */
async function callsBetween(before: Mark, after: Mark): Promise<string[]> {
  const calls: string[] = [];
  for (const [name, total] of Object.entries(after.outside)) {
    const count = total - before.outside[name];
    if (count <= 0) continue;
    if (name === 'imap') calls.push(...Array<string>(count).fill('imap LOGIN'));
    else {
      const sim = system.simulators[name as keyof EmbeddedSystem['simulators']]!;
      const { requests } = (await (await fetch(`${sim.url}/__sim/requests?limit=${count}`)).json()) as { requests: { method: string; url: string }[] };
      calls.push(...requests.map((request) => `${name} ${request.method} ${request.url}`));
    }
  }
  return calls;
}

/**
 * Work a request set going that has not ended yet, and writes after the request answered: runs it
 * started (an entry's embedding) and events still in an outbox (their consumers write when they come).
 */
async function requestsRunsActive(): Promise<number> {
  const counts = await Promise.all(
    domainServiceNames.map(async (name) => {
      const { rows } = await db.query<{ active: string }>(
        `SELECT (SELECT count(*) FROM "${schemaOf(name)}".runs WHERE status IN ('pending', 'in_progress') AND schedule IS NULL)
              + (SELECT count(*) FROM "${schemaOf(name)}".outbox_events WHERE status = 'pending') AS active`,
      );
      return Number(rows[0].active);
    }),
  );
  return counts.reduce((sum, count) => sum + count, 0);
}

/** After an accepted write: waits until the system stops writing and calling out (events, outside effects, runs it started), at most 10 s. */
async function settle(): Promise<Mark> {
  let last = await mark();
  for (let quietSince = Date.now(), deadline = Date.now() + 10_000; Date.now() < deadline; ) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const now = await mark();
    if (changed(last, now) || (await requestsRunsActive()) > 0) {
      last = now;
      quietSince = Date.now();
    } else if (Date.now() - quietSince >= 250) break;
  }
  return last;
}

async function writesSince(id: number): Promise<string[]> {
  const { rows } = await db.query<{ tbl: string; op: string }>('SELECT tbl, op FROM fuzz_audit.writes WHERE id > $1 ORDER BY id', [id]);
  return rows.map((row) => `${row.op} ${row.tbl}`);
}

/**
 * What a caller of a webhook must show besides its body, so its input is judged too: the chat
 * flow's two steps send its secret, which the fuzz may have rotated (a rotate is an admin route
 * too), so it is read when sent.
 */
const CHAT_FLOW_PATHS = new Set(['/api/qpay/webhook', '/api/manychat/webhook']);
const chatFlowSecret = async () => ((await (await fetch(`${system.url}/api/qpay/webhook-secret/reveal`, { method: 'POST', headers: { cookie: admin.cookie, 'x-csrf-token': admin.csrf } })).json()) as { secret: string }).secret;

function sessionFor(route: AnyRouteContract): Session | null {
  if (route.access === 'admin') return admin;
  if (route.access === 'customer') return customer;
  return null;
}

async function send(request: HostileRequest): Promise<{ status: number; error: string }> {
  const session = sessionFor(request.route);
  const headers: Record<string, string> = {};
  if (session) headers.cookie = session.cookie;
  if (session && STATE_CHANGING.has(request.method)) headers['x-csrf-token'] = session.csrf;
  if (request.contentType) headers['content-type'] = request.contentType;
  if (CHAT_FLOW_PATHS.has(request.route.path)) headers['x-webhook-secret'] = await chatFlowSecret();
  try {
    const response = await fetch(`${system.url}${request.url}`, { method: request.method, headers, body: request.body, redirect: 'manual', signal: AbortSignal.timeout(20_000) });
    const text = await response.text();
    let error = '';
    try {
      error = String((JSON.parse(text) as { error?: unknown }).error ?? '');
    } catch {
      error = text.slice(0, 200);
    }
    return { status: response.status, error };
  } catch (failure) {
    return { status: -1, error: `no answer: ${(failure as Error).message}` };
  }
}

/** The routes a caller can reach: the gateway's own /api routes and every route its table forwards. */
const reachable = allRoutes.filter((route) => route.path.startsWith('/api') && route.access !== 'internal' && (route.owner === 'gateway' || matchRoute(route.method, route.path.replace(/:[A-Za-z]\w*/g, '1')) !== null));

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'hostile-requests-'));
  // The work that runs on its own (QPay's reconciliation every 30 s, the hourly expiry check) out of the way, and the price
  // list read once for the whole run: every write and outside call is then a request's own.
  system = await startEmbedded({
    dataDir, port: 0, quiet: true,
    environment: { payments: { RECONCILE_EVERY_MS: '3600000' }, notifications: { EXPIRY_CHECK_CRON: '0 0 1 1 *' }, pricing: { PRICE_CACHE_TTL_SECONDS: '3600' } },
  });
  await promisify(execFile)(process.execPath, ['--import', 'tsx', 'gateway/src/cli/create-admin.ts', '--username', ADMIN.username, '--password', ADMIN.password], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: system.databaseUrl },
    timeout: 60_000,
  });
  admin = await signIn('/api/admin/login', ADMIN);
  const asAdmin = (method: string, url: string, body: unknown) =>
    fetch(`${system.url}${url}`, { method, headers: { cookie: admin.cookie, 'x-csrf-token': admin.csrf, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const made = await asAdmin('POST', '/api/streaming-keys', { service: 'NFX', email: CUSTOMER_MAILBOX.username, months: 1 });
  const key = ((await made.json()) as { data: { keys: { key: string }[] } }).data.keys[0].key;
  await asAdmin('PUT', '/api/streaming-accounts/mailbox', { service: 'NFX', email: CUSTOMER_MAILBOX.username, mailboxPassword: CUSTOMER_MAILBOX.password });
  customer = await signIn('/api/customer/login-direct', { email: CUSTOMER_MAILBOX.username, key });
  // The price list is read from the sheet and kept at the first read after a start: done now, not by the first hostile request.
  await fetch(`${system.url}/api/prices`);
  db = new pg.Client({ connectionString: system.databaseUrl });
  await db.connect();
}, 180_000);

afterAll(async () => {
  await db?.end();
  await system?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('hostile requests on every route, through the gateway, against the whole system', () => {
  it('never answers 5xx, refuses with the field named, and a refused request writes nothing and calls nothing outside', { timeout: 300_000 }, async () => {
    const audited = await auditWrites();
    expect(audited).toEqual(expect.arrayContaining(['payments.qpay_invoices', 'streaming_keys.streaming_keys', 'gateway.users', 'pricing.pricing_data']));
    expect(reachable.length).toBeGreaterThan(60);

    const started = Date.now();
    const perRoute = new Map<string, number>();
    const failures: string[] = [];
    let refused = 0;
    let before = await settle();
    // What changed since `before`, judged for the answers given: writes never; outside calls only a lookup's reads.
    const judge = async (what: string, statuses: number[]) => {
      const after = await mark();
      if (!changed(before, after)) return void (before = after);
      const writes = await writesSince(before.write);
      const calls = await callsBetween(before, after);
      const refusal = statuses.some((status) => REFUSALS.has(status));
      const forbidden = statuses.every((status) => status < 400) ? [] : refusal ? calls : calls.filter((call) => !/^\w+ GET /.test(call));
      if (statuses.some((status) => status >= 400) && (writes.length || forbidden.length)) {
        failures.push(`${what}: answered ${statuses.join(', ')} yet ${writes.length ? `wrote ${writes.join(', ')} ` : ''}${forbidden.length ? `called ${forbidden.join('; ')}` : ''}`);
      }
      // A write may set events and outside effects going: they end before the next case starts.
      before = writes.length ? await settle() : after;
    };
    // Cases the contract says must be refused are checked in batches (a check per case would double the run);
    // any other case is checked alone, so an accepted write is never taken for a refused one's.
    let batch: { what: string; status: number }[] = [];
    const flush = async () => {
      if (batch.length) await judge(batch.map((item) => item.what).join(' | '), batch.map((item) => item.status));
      batch = [];
    };
    for (const route of reachable) {
      const label = `${route.method} ${route.path}`;
      const requests = hostileRequests(ENDS_SESSIONS.has(route.path) ? { ...route, access: 'public' } : route, { params: BASE_PARAMS[route.path] });
      perRoute.set(label, requests.length);
      for (const request of requests) {
        const what = `${label} — ${request.label}`;
        const expected = request.expect;
        if (!expected) await flush();
        const { status, error } = await send(request);
        if (status >= 400) refused++;
        if (status < 0 || status >= 500) failures.push(`${what}: ${status} ${error}`);
        if (expected && (status !== expected.status || (expected.mentions && !error.includes(expected.mentions)))) {
          failures.push(`${what}: expected ${expected.status}${expected.mentions ? ` naming "${expected.mentions}"` : ''}, got ${status} ${error}`);
        }
        if (!expected) await judge(what, [status]);
        else if (batch.push({ what, status }) >= 25) await flush();
      }
    }
    await flush();
    const seconds = (Date.now() - started) / 1000;
    const total = [...perRoute.values()].reduce((sum, count) => sum + count, 0);
    console.log(
      `hostile requests: ${total} cases over ${perRoute.size} routes (${refused} refused) in ${seconds.toFixed(1)} s\n` +
        [...perRoute].map(([route, count]) => `  ${String(count).padStart(3)}  ${route}`).join('\n'),
    );
    expect(failures).toEqual([]);
    expect(total).toBeGreaterThanOrEqual(1_000);
    expect(perRoute.size).toBe(reachable.length);
  });
});
