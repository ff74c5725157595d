import { execFile } from 'node:child_process';
import { createCipheriv, createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { dataKeyId } from '@bo/platform';
import { newFileEncryption, sealChunks } from '@bo/platform/migration-export';
import type { DomainServiceName } from '@bo/proto';
import { startEmbedded, type EmbeddedSystem } from '../src/launcher';
import { rotateEmbeddedDataKey } from '../src/rotate-data-key';
import { loadOrCreateSecrets, signerOf } from '../src/secrets';
import { checkBackgroundWork, signInAdmin } from './support/background-work';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** A value in the format before the key ring (`v1.<iv>.<tag>.<ciphertext>`, no key id), as older databases hold them. */
function sealV1(secret: string, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', createHash('sha256').update(secret).digest(), iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), body].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
}

// Replies are read loosely here; their shapes are proven by the pricing and gateway suites.
const json = async (response: Response): Promise<any> => response.json();

describe('the embedded system (make start)', () => {
  let dataDir: string;
  let system: EmbeddedSystem | undefined;

  afterAll(async () => {
    await system?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('serves the dashboard, the API and prices through the gateway on the embedded PostgreSQL', async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'embedded-'));
    system = await startEmbedded({ dataDir, port: 0, quiet: true });

    const health = await fetch(`${system.url}/health`);
    expect(health.status).toBe(200);
    expect(await json(health)).toMatchObject({ status: 'healthy' });

    const prices = await json(await fetch(`${system.url}/api/prices`));
    expect(prices.count).toBeGreaterThan(10);
    expect(prices.stale).toBe(false);

    expect((await fetch(`${system.url}/api/auth/user`)).status).toBe(401);
    const index = await fetch(`${system.url}/`);
    expect(index.headers.get('content-type')).toContain('text/html');
  });

  it('shows background work through the gateway on the PostgreSQL bus: a sync as a run, its event stream, the schedules of every service', async () => {
    await checkBackgroundWork(system!.url, system!.databaseUrl, system!.simulators.woocommerce!.url);
  });

  it('exports encrypted with a passphrase: the file shows its metadata and nothing else, opens only with that passphrase, to a file the import takes', async () => {
    const url = system!.url;
    const admin = await signInAdmin(url, system!.databaseUrl, 'exporter');
    const write = { cookie: admin.cookie, 'x-csrf-token': admin.csrf, 'content-type': 'application/json' };
    const post = (path: string, body: unknown) => fetch(`${url}${path}`, { method: 'POST', headers: write, body: JSON.stringify(body) });
    const passphrase = 'Улаанбаатар export 2026';

    const short = await post('/api/migration/export', { passphrase: 'eleven char' });
    expect(short.status).toBe(400);
    expect((await json(short)).error).toMatch(/at least 12 characters/);

    const exported = await post('/api/migration/export', { passphrase });
    expect(exported.status).toBe(200);
    expect(exported.headers.get('content-disposition')).toMatch(/^attachment; filename="database-export-\d{4}-\d{2}-\d{2}\.encrypted\.json"$/);
    const text = await exported.text();
    const file = JSON.parse(text);
    expect(file).toMatchObject({ format: 'bo-encrypted-export', version: 1, encryption: { cipher: 'aes-256-gcm', kdf: { name: 'scrypt', N: 131072, r: 8, p: 1 }, chunkBytes: 65536 } });
    expect(Object.keys(file)).toEqual(['format', 'version', 'encryption', 'body', 'metadata']);
    expect(file.metadata.tableCounts['gateway.local_admins']).toBeGreaterThanOrEqual(1);
    // The rows are sealed: the admin's name and the price list's products are nowhere in the clear.
    expect(text).not.toContain('exporter');
    expect(text).not.toContain('Netflix');

    const opened = await post('/api/migration/open', { ...file, passphrase });
    expect(opened.status).toBe(200);
    const plain = await json(opened);
    expect(plain.metadata).toEqual(file.metadata);
    expect(plain.data.gateway.local_admins.map((row: { username: string }) => row.username)).toContain('exporter');

    // A wrong passphrase, and a file changed by a byte, are refused alike; neither is read.
    const refusal = { error: 'Wrong passphrase or damaged file' };
    const wrong = await post('/api/migration/open', { ...file, passphrase: `${passphrase}!` });
    expect([wrong.status, await json(wrong)]).toEqual([400, expect.objectContaining(refusal)]);
    const changed = Buffer.from(file.body[0], 'base64');
    changed[20]! ^= 1;
    const damaged = await post('/api/migration/open', { ...file, body: [changed.toString('base64'), ...file.body.slice(1)], passphrase });
    expect([damaged.status, await json(damaged)]).toEqual([400, expect.objectContaining(refusal)]);

    // Sealed with the passphrase but not an export (or asking scrypt too much): refused, never a 500.
    const notAnExport = await newFileEncryption(passphrase);
    const sealedText: string[] = [];
    for await (const chunk of sealChunks((async function* () { yield '{"data": not json'; })(), notAnExport.encryption, notAnExport.key)) sealedText.push(chunk);
    const invalid = await post('/api/migration/open', { ...file, encryption: notAnExport.encryption, body: sealedText, passphrase });
    expect([invalid.status, await json(invalid)]).toEqual([400, expect.objectContaining({ error: 'Invalid migration file format' })]);
    for (const kdf of [{ N: 3000 }, { N: 2 ** 20, r: 8 }]) {
      const greedy = await post('/api/migration/open', { ...file, encryption: { ...file.encryption, kdf: { ...file.encryption.kdf, ...kdf } }, passphrase });
      expect([greedy.status, (await json(greedy)).error]).toEqual([400, expect.stringMatching(/^Invalid body: encryption\.kdf\.N/)]);
    }

    // What opened is a file as the import takes it: a dry run of it into the system that made it finds every row there.
    const check = await post('/api/migration/import?dryRun=true', plain);
    expect(check.status).toBe(200);
    const { results } = await json(check);
    expect(results.filter((table: { failed: number; added: number }) => table.failed > 0 || table.added > 0)).toEqual([]);
  });

  it('lets no service stall another: a transaction held open in pricing leaves the gateway answering', async () => {
    const client = new pg.Client({ connectionString: system!.databaseUrl });
    await client.connect();
    try {
      await client.query('BEGIN');
      await client.query('LOCK TABLE pricing.pricing_data IN ACCESS EXCLUSIVE MODE');
      // The gateway reads and writes its own schema (a sign-in writes a session row) meanwhile: both
      // are answered while the lock is still held (it is released only below), so nothing of the
      // gateway's waited for pricing's transaction.
      const login = await fetch(`${system!.url}/api/admin/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'nobody', password: 'wrong password' }) });
      expect(login.status).toBe(401);
      expect((await fetch(`${system!.url}/api/auth/user`)).status).toBe(401);
      // Still held: the lock was not given up on the way (a stalled gateway would still be waiting).
      expect((await client.query(`SELECT count(*)::int AS n FROM pg_locks WHERE relation = 'pricing.pricing_data'::regclass AND mode = 'AccessExclusiveLock' AND granted`)).rows[0].n).toBe(1);
    } finally {
      await client.query('ROLLBACK');
      await client.end();
    }
  });

  it('keeps its data across a restart: the sheet, and the saved price copy in the embedded PostgreSQL', async () => {
    const sheetsUrl = system!.simulators.sheets.url;
    const view = await json(await fetch(`${sheetsUrl}/__sim/spreadsheets/sim-price-list`));
    view.sheets[0].rows[1][5] = '77777'; // the first product's regular price, changed "in the sheet"
    const seeded = await fetch(`${sheetsUrl}/__sim/spreadsheets`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: view.id, title: view.title, sharedWith: view.sharedWith, sheets: view.sheets.map((s: { title: string; rows: string[][] }) => ({ title: s.title, rows: s.rows })) }),
    });
    expect(seeded.status).toBe(201);
    await system!.stop();

    system = await startEmbedded({ dataDir, port: 0, quiet: true });
    const fresh = await json(await fetch(`${system.url}/api/prices?format=array`));
    expect(fresh.data[0].regularPrice).toBe('77777');

    // With the sheet down after another restart, the copy saved in the database is what gets served.
    // (ai-chat reads the price list as it starts; pointed nowhere here, so the first read is this test's, after the sheet is down.)
    await system.stop();
    system = await startEmbedded({ dataDir, port: 0, quiet: true, environment: { 'ai-chat': { PRICING_URL: 'http://127.0.0.1:9' } } });
    await fetch(`${system.simulators.sheets.url}/__sim/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ pathPrefix: '/v4/', kind: 'status', status: 503 }),
    });
    const stale = await json(await fetch(`${system.url}/api/prices?format=array`));
    expect(stale.stale).toBe(true);
    expect(stale.data[0].regularPrice).toBe('77777');
  });

  it('rotates the data key twice (make rotate-data-key) and, restarted with the newest key only, opens every sealed secret', { timeout: 90_000 }, async () => {
    const secrets = await loadOrCreateSecrets(dataDir);
    const firstKey = secrets.dataEncryptionKey;
    // Signed afresh for each call, as the gateway and notifications of this run would.
    const call = async (service: DomainServiceName, method: string, url: string, body?: unknown, as: 'admin' | 'notifications' = 'admin') => {
      const identity = as === 'admin' ? signerOf(secrets, 'gateway').sign({ kind: 'admin', userId: '1', email: 'ops@example.com', isAdmin: true, keyId: null }) : signerOf(secrets, 'notifications').serviceHeader();
      const response = await fetch(`${system!.serviceUrls[service]}${url}`, { method, headers: { 'content-type': 'application/json', 'x-internal-identity': identity }, body: body === undefined ? undefined : JSON.stringify(body) });
      return { status: response.status, body: await json(response) };
    };
    const made = await call('streaming-keys', 'POST', '/api/streaming-keys', { service: 'NFX', email: 'nfx.rotate@example.mn', months: 1, password: 'Shared-Pass-2026' });
    expect(made.status).toBe(200);
    expect((await call('streaming-keys', 'PUT', '/api/streaming-accounts/mailbox', { service: 'NFX', email: 'nfx.rotate@example.mn', mailboxPassword: 'Mailbox-Pass-2026' })).status).toBe(200);
    expect((await call('streaming-keys', 'POST', '/api/streaming-keys', { service: 'NFX', email: 'nfx.legacy@example.mn', months: 1 })).status).toBe(200);
    const db = new pg.Client({ connectionString: system!.databaseUrl });
    await db.connect();
    // One password as a database from before the key ring holds it.
    await db.query("UPDATE streaming_keys.streaming_accounts SET password = $1 WHERE email = 'nfx.legacy@example.mn'", [sealV1(firstKey, 'Legacy-Pass-2025')]);
    await db.end();
    await system!.stop();
    system = undefined;

    // The command `make rotate-data-key` runs: the embedded run makes its new key itself.
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
    delete env.DATABASE_URL;
    const rotate = () => promisify(execFile)(process.execPath, ['--import', 'tsx', 'deploy/embedded/src/rotate-data-key.ts'], { cwd: root, env, timeout: 60_000 });
    const first = await rotate();
    const afterFirst = await loadOrCreateSecrets(dataDir);
    expect(afterFirst.dataEncryptionOldKeys).toEqual([firstKey]);
    expect(first.stdout.trim().split('\n')).toEqual([
      'payments qpay_settings.qpay_client_secret: re-sealed 1, already current 0, unreadable 0',
      'payments qpay_settings.webhook_secret: re-sealed 1, already current 0, unreadable 0',
      'streaming-keys streaming_accounts.password: re-sealed 2, already current 0, unreadable 0',
      'streaming-keys streaming_accounts.mailbox_password: re-sealed 1, already current 0, unreadable 0',
      `Every readable value is now sealed with key ${dataKeyId(afterFirst.dataEncryptionKey)}.`,
    ]);

    const second = await rotateEmbeddedDataKey(dataDir);
    expect(second.results.map(({ table, column, resealed, current, unreadable }) => [table, column, resealed, current, unreadable])).toEqual([
      ['qpay_settings', 'qpay_client_secret', 1, 0, {}],
      ['qpay_settings', 'webhook_secret', 1, 0, {}],
      ['streaming_accounts', 'password', 2, 0, {}],
      ['streaming_accounts', 'mailbox_password', 1, 0, {}],
    ]);
    const afterSecond = await loadOrCreateSecrets(dataDir);
    expect(afterSecond.dataEncryptionOldKeys).toEqual([afterFirst.dataEncryptionKey, firstKey]);
    expect(second.keyId).toBe(dataKeyId(afterSecond.dataEncryptionKey));
    // Every value is sealed with the newest key now: the run starts without the old ones.
    await writeFile(path.join(dataDir, 'secrets.json'), JSON.stringify({ ...afterSecond, dataEncryptionOldKeys: [] }, null, 2));

    system = await startEmbedded({ dataDir, port: 0, quiet: true });
    const accounts = (await call('streaming-keys', 'GET', '/api/streaming-accounts?service=NFX')).body.data;
    expect(accounts.find((a: { email: string }) => a.email === 'nfx.rotate@example.mn')).toMatchObject({ passwordMasked: '••••2026', passwordUnreadable: null, mailboxPasswordMasked: '••••2026', mailboxPasswordUnreadable: null });
    expect(accounts.find((a: { email: string }) => a.email === 'nfx.legacy@example.mn')).toMatchObject({ passwordMasked: '••••2025', passwordUnreadable: null });
    const delivery = await call('streaming-keys', 'GET', `/internal/streaming-keys/keys/${made.body.data.keys[0].id}/delivery`, undefined, 'notifications');
    expect(delivery.body.accountPassword).toBe('Shared-Pass-2026');
    expect((await call('payments', 'GET', '/api/qpay/settings')).body).toMatchObject({ qpayClientSecretSet: true, qpayClientSecretUnreadable: null, webhookSecretUnreadable: null });
    // The QPay client secret is used, not only shown: an order's invoice is made at the QPay simulator.
    expect((await call('streaming-keys', 'POST', '/api/streaming/pricing', { service: 'NFX', serviceName: 'Netflix', duration: 1, price: 35_000 })).status).toBe(200);
    const order = await call('streaming-keys', 'POST', '/api/streaming-invoices', { email: 'bat@example.mn', service: 'NFX', duration: 1 });
    expect(order).toMatchObject({ status: 200, body: { data: { status: 'PENDING', invoiceId: expect.stringMatching(/^INV-/) } } });

    // While the run is up, the command refuses: its services hold the key ring they started with.
    const refused = await rotate().then(() => null, (error: { code: number; stderr: string }) => error);
    expect(refused).toMatchObject({ code: 2, stderr: expect.stringContaining('The embedded system is running') });
    expect(JSON.parse(await readFile(path.join(dataDir, 'secrets.json'), 'utf8')).dataEncryptionKey).toBe(afterSecond.dataEncryptionKey);
  });
});
