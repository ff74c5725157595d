import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMPORT_ALREADY_RUNNING, type ImportResult, type RunView } from '@bo/proto';
import { createLocalAdmin, signInLocalAdmin, startHarness, type Harness } from './support/harness';

/**
 * The import is a run of the gateway's (docs/database-export.md): the file's parts are kept beside
 * it, so the run survives a restart; one import at a time; the same file twice changes nothing. The
 * gateway's own part is imported here without any service (the harness has none behind it).
 */
const ROWS = 20_000;
const exportTimestamp = '2026-11-27T08:00:00.000Z';
const fileOf = (users: Record<string, unknown>[]) => ({ data: { gateway: { users } }, metadata: { exportTimestamp } });
const usersOf = (count: number, prefix: string) =>
  Array.from({ length: count }, (_, i) => ({ id: randomUUID(), email: `${prefix}.${i}@example.mn`, is_admin: false, updated_at: '2026-11-20T10:00:00.000Z' }));

describe('POST /api/migration/import as a run', () => {
  let h: Harness;
  let admin: { cookie: string; csrfToken: string };

  beforeAll(async () => {
    h = await startHarness();
    admin = await signInLocalAdmin(h.app, h.prisma);
  });
  afterAll(async () => {
    await h?.close();
  });

  const importFile = (app: FastifyInstance, file: unknown, dryRun: boolean) =>
    app.inject({ method: 'POST', url: `/api/migration/import?dryRun=${dryRun}`, headers: { cookie: admin.cookie, 'x-csrf-token': admin.csrfToken }, payload: file as object });

  async function ended(app: FastifyInstance, id: string): Promise<RunView> {
    for (const until = Date.now() + 60_000; Date.now() < until; await new Promise((resolve) => setTimeout(resolve, 100))) {
      const reply = await app.inject({ method: 'GET', url: `/api/admin/runs/${id}`, headers: { cookie: admin.cookie } });
      expect(reply.statusCode).toBe(200);
      const run = reply.json<RunView>();
      if (['completed', 'failed', 'cancelled'].includes(run.status)) return run;
    }
    throw new Error(`run ${id} did not end within 60 s`);
  }

  it('a dry run answers the counts and starts nothing; the import answers its run, whose result is the counts, and leaves no copy of the file', async () => {
    const file = fileOf(usersOf(3, 'dry'));
    const dry = await importFile(h.app, file, true);
    expect(dry.statusCode).toBe(200);
    expect(dry.json()).toEqual({ success: true, dryRun: true, results: [expect.objectContaining({ table: 'gateway.users', added: 3, success: 3, failed: 0 })] });
    expect(await h.prisma.migrationImportPart.count()).toBe(0);
    expect(await h.prisma.user.count({ where: { email: { startsWith: 'dry.' } } })).toBe(0);

    const started = await importFile(h.app, file, false);
    expect(started.statusCode).toBe(200);
    const { dryRun, run } = started.json<{ dryRun: false; run: RunView }>();
    expect(dryRun).toBe(false);
    expect(run).toMatchObject({ service: 'gateway', kind: 'migration-import', status: 'pending', startedBy: 'admin:root' });
    const done = await ended(h.app, run.id);
    expect(done).toMatchObject({ status: 'completed', progress: { current: 1, total: 1, counters: { added: 3, updated: 0, failed: 0 } }, steps: [expect.objectContaining({ name: 'import gateway' })] });
    expect(done.result).toEqual({ success: true, dryRun: false, adminsWithoutPassword: [], results: [expect.objectContaining({ table: 'gateway.users', added: 3, success: 3, failed: 0 })] });
    expect(await h.prisma.user.count({ where: { email: { startsWith: 'dry.' } } })).toBe(3);
    expect(await h.prisma.migrationImportPart.count()).toBe(0);
    // The run works after the request has ended: its audit entry still names the admin who imported, from where.
    const [entry] = await h.prisma.$queryRawUnsafe<{ actor_id: string; actor_name: string; address: string; request: string; after: { added: number } }[]>(
      `SELECT actor_id, actor_name, address, request, "after" FROM gateway.admin_logs WHERE action = 'import' AND entity = 'users'`,
    );
    // A password admin is named by their username (their identity carries it; they have no e-mail).
    expect(entry).toMatchObject({ actor_id: expect.stringMatching(/^local:/), actor_name: 'root', request: 'POST /api/migration/import', after: { added: 3 } });
    expect(entry!.address).toBeTruthy();

    // The same file again changes nothing.
    const again = await ended(h.app, (await importFile(h.app, file, false)).json<{ run: RunView }>().run.id);
    expect((again.result as ImportResult).results).toEqual([expect.objectContaining({ table: 'gateway.users', added: 0, updated: 0, unchanged: 3, failed: 0 })]);
  });

  it('two imports sent at once: one runs, the other is refused with 409 while it does, and nothing is imported twice', async () => {
    const [first, second] = [fileOf(usersOf(ROWS, 'first')), fileOf(usersOf(ROWS, 'second'))];
    const replies = await Promise.all([importFile(h.app, first, false), importFile(h.app, second, false)]);
    const statuses = replies.map((reply) => reply.statusCode).sort();
    expect(statuses).toEqual([200, 409]);
    const refused = replies.find((reply) => reply.statusCode === 409)!;
    expect(refused.json().error).toBe(IMPORT_ALREADY_RUNNING);
    const winner = replies.find((reply) => reply.statusCode === 200)!.json<{ run: RunView }>().run;
    expect((await ended(h.app, winner.id)).status).toBe('completed');
    const counts = await Promise.all(['first.', 'second.'].map((prefix) => h.prisma.user.count({ where: { email: { startsWith: prefix } } })));
    expect(counts.sort((a, b) => a - b)).toEqual([0, ROWS]);
  }, 120_000);

  it('restores a local admin without a password: password sign-in refuses them, the result names them, and create-admin lets them in', async () => {
    const restored = { id: randomUUID(), username: 'restored-admin', created_at: '2026-11-20T10:00:00.000Z', disabled_at: null };
    const file = { data: { gateway: { local_admins: [restored] } }, metadata: { exportTimestamp } };
    const done = await ended(h.app, (await importFile(h.app, file, false)).json<{ run: RunView }>().run.id);
    const result = done.result as ImportResult;
    expect(result.results).toEqual([expect.objectContaining({ table: 'gateway.local_admins', added: 1, failed: 0, errors: [] })]);
    expect(result).toMatchObject({ success: true, adminsWithoutPassword: ['restored-admin'] });
    expect(await h.prisma.localAdmin.findUnique({ where: { username: 'restored-admin' } })).toMatchObject({ id: restored.id, passwordHash: null });

    const signIn = (password: string) => h.app.inject({ method: 'POST', url: '/api/admin/login', payload: { username: 'restored-admin', password } });
    for (const password of ['', 'any password at all']) {
      const refused = await signIn(password);
      expect(refused.statusCode, password).toBeGreaterThanOrEqual(400);
      expect(refused.statusCode, password).toBeLessThan(500);
    }
    expect((await signIn('any password at all')).json()).toMatchObject({ error: 'Invalid username or password' });
    // make create-admin's store sets the password; the same file again leaves it (the file has no hash to write).
    const { password } = await createLocalAdmin(h.prisma, 'restored-admin', 'a fresh password for the new server');
    expect((await signIn(password)).statusCode).toBe(200);
    const again = await ended(h.app, (await importFile(h.app, file, false)).json<{ run: RunView }>().run.id);
    expect(again.result).toMatchObject({ results: [expect.objectContaining({ table: 'gateway.local_admins', unchanged: 1, failed: 0 })], adminsWithoutPassword: [] });
    expect((await signIn(password)).statusCode).toBe(200);
  });

  it('survives a restart: the gateway stopped right after the import began, another takes the run up and completes it from the kept file', async () => {
    const file = fileOf(usersOf(ROWS, 'restart'));
    const { run } = (await importFile(h.app, file, false)).json<{ run: RunView }>();
    await h.app.close();
    const closedAt = new Date().toISOString();
    const next = await h.buildAnother();
    const done = await ended(next, run.id);
    expect(done.status).toBe('completed');
    // The new process did the step, from the file kept in the database (the first had begun it, or not yet taken the run).
    expect(done.steps.map((step) => step.name)).toEqual(['import gateway']);
    expect(done.steps[0]!.completedAt > closedAt).toBe(true);
    // Whatever the first process had imported before it stopped is found unchanged, not added twice.
    const [users] = (done.result as ImportResult).results;
    expect(users).toMatchObject({ table: 'gateway.users', failed: 0 });
    expect(users!.added + users!.unchanged).toBe(ROWS);
    expect(await h.prisma.user.count({ where: { email: { startsWith: 'restart.' } } })).toBe(ROWS);
    expect(await h.prisma.migrationImportPart.count()).toBe(0);
    h.app = next;
  }, 120_000);
});
