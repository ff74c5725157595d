import amqp from 'amqplib';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyDelivery } from '@bo/proto';
import { isContention, isTransientError, ServiceClient, transientDependency } from '@bo/platform';
import { RedisCache } from '@bo/platform/cache';
import { createPrismaClient, openDatabase, type Database } from '@bo/platform/db';
import { UnprocessableEventError } from '@bo/platform/events';
import { createTestDatabase, type TestDatabase } from '@bo/platform/testing/database';
import { signerOf } from '@bo/platform/testing/identity';
import { createTestVhost, type TestVhost } from '@bo/platform/testing/rabbitmq';
import { startTcpProxy, type TcpProxy } from '@bo/platform/testing/tcp-proxy';
import { PrismaClient } from '../fixtures/demo/src/generated/prisma/client';

/** The error `work` fails with (the test fails when it does not). */
async function failure(work: () => PromiseLike<unknown>): Promise<unknown> {
  try {
    await work();
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

// The classifier is judged on errors the drivers really throw: provoked against a closed port, a
// cut proxy, a terminated backend, a serialization conflict, a full pool, a closed channel.
describe('isTransientError on real failures', () => {
  let database: TestDatabase;
  let proxy: TcpProxy;
  let viaProxy: Database;
  let closed: Database;
  let vhost: TestVhost;
  const prismaOn = (db: Database) => createPrismaClient(PrismaClient as never, db, 'public') as unknown as PrismaClient;

  beforeAll(async () => {
    database = await createTestDatabase('transient_errors');
    const direct = new pg.Client({ connectionString: database.url });
    await direct.connect();
    await direct.query('CREATE TABLE counters (id int PRIMARY KEY, n int NOT NULL); INSERT INTO counters VALUES (1, 0)');
    await direct.end();
    proxy = await startTcpProxy({ host: '127.0.0.1', port: 5432 });
    viaProxy = await openDatabase({ kind: 'postgres', url: Object.assign(new URL(database.url), { port: String(proxy.port) }).toString() });
    const pool = new pg.Pool({ connectionString: 'postgres://postgres@127.0.0.1:1/none' });
    pool.on('error', () => {});
    closed = { kind: 'postgres', pool, close: () => pool.end() };
    vhost = await createTestVhost('transient_errors');
  });
  afterAll(async () => {
    await viaProxy?.close();
    await closed?.close();
    await proxy?.close();
    await vhost?.delete();
    await database?.drop();
  });

  /** Waits until `sql` is running in this suite's database (as pg_stat_activity shows it). */
  async function sleepingQuery(sql: string): Promise<void> {
    const watcher = new pg.Client({ connectionString: database.url });
    await watcher.connect();
    try {
      for (;;) {
        const { rows } = await watcher.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND state = 'active' AND query = $1`, [sql]);
        if (rows[0].n > 0) return;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    } finally {
      await watcher.end();
    }
  }

  it('knows PostgreSQL away: refused, cut mid-query, cut at connect, through Prisma and through pg', async () => {
    expect(transientDependency(await failure(() => closed.pool.query('SELECT 1')))).toBe('network'); // ECONNREFUSED
    const prisma = prismaOn(closed);
    const model = await failure(() => prisma.widget.findFirst());
    expect(model).toMatchObject({ code: 'P1001' });
    expect(transientDependency(model)).toBe('database');
    const raw = await failure(() => prisma.$queryRawUnsafe('SELECT 1'));
    expect(raw).toMatchObject({ code: 'P2010' });
    expect(transientDependency(raw)).toBe('database');

    const viaPrisma = prismaOn(viaProxy);
    const running = failure(() => viaPrisma.$queryRawUnsafe('SELECT pg_sleep(30.1)'));
    await sleepingQuery('SELECT pg_sleep(30.1)'); // mid-query, however long the connection took
    proxy.cutAll();
    const cut = await running;
    expect(String((cut as Error).message)).toMatch(/Connection terminated/);
    expect(transientDependency(cut)).toBe('database');
    proxy.refuse();
    try {
      expect(isTransientError(await failure(() => viaProxy.pool.query('SELECT 1')))).toBe(true);
      expect(isTransientError(await failure(() => viaPrisma.$queryRawUnsafe('SELECT 1')))).toBe(true);
    } finally {
      proxy.resume();
    }
  });

  it('knows a terminated backend (57P01), a serialization failure (40001, contention rather than an outage) and a pool that hands out no connection', async () => {
    const victim = new pg.Client({ connectionString: database.url });
    victim.on('error', () => {});
    await victim.connect();
    const pid = (await victim.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid;
    const sleeping = failure(() => victim.query('SELECT pg_sleep(30.2)'));
    const killer = new pg.Client({ connectionString: database.url });
    await killer.connect();
    await sleepingQuery('SELECT pg_sleep(30.2)'); // terminated mid-query
    await killer.query('SELECT pg_terminate_backend($1)', [pid]);
    const terminated = await sleeping;
    expect(terminated).toMatchObject({ code: '57P01' });
    expect(transientDependency(terminated)).toBe('database');
    await victim.end().catch(() => {});

    const prisma = prismaOn(viaProxy);
    const ownBackend = await failure(() => prisma.$transaction(async (tx) => tx.$executeRawUnsafe('SELECT pg_terminate_backend(pg_backend_pid())')));
    expect(transientDependency(ownBackend)).toBe('database');

    // Two serializable transactions read and write the same row: the second to commit fails with 40001.
    const [a, b] = [new pg.Client({ connectionString: database.url }), new pg.Client({ connectionString: database.url })];
    await Promise.all([a.connect(), b.connect()]);
    for (const client of [a, b]) await client.query('BEGIN ISOLATION LEVEL SERIALIZABLE; SELECT n FROM counters WHERE id = 1');
    await a.query('UPDATE counters SET n = n + 1 WHERE id = 1');
    await a.query('COMMIT');
    const conflict = await failure(() => b.query('UPDATE counters SET n = n + 1 WHERE id = 1'));
    expect(conflict).toMatchObject({ code: '40001' });
    // Contention, not an outage: retried like one, but never "the database is unavailable".
    expect(isTransientError(conflict)).toBe(true);
    expect(isContention(conflict)).toBe(true);
    expect(transientDependency(conflict)).toBeNull();
    await b.query('ROLLBACK');
    await Promise.all([a.end(), b.end(), killer.end()]);

    const small = new pg.Pool({ connectionString: database.url, max: 1, connectionTimeoutMillis: 100 });
    // The pool's one client is held, so the query below waits for it and times out. On a loaded
    // machine opening that client can itself exceed 100 ms: try it until it opens.
    let held: pg.PoolClient | undefined;
    for (let attempt = 0; !held && attempt < 20; attempt++) held = await small.connect().catch(() => undefined);
    if (!held) throw new Error('could not open the pool\'s one client in 20 tries');
    const timedOut = await failure(() => small.query('SELECT 1'));
    expect(String((timedOut as Error).message)).toMatch(/timeout exceeded when trying to connect/);
    expect(transientDependency(timedOut)).toBe('database');
    held.release();
    await small.end();
  });

  it('knows a deadlock between two Prisma transactions as contention, not an outage', async () => {
    const prisma = prismaOn(viaProxy);
    await prisma.$executeRawUnsafe('INSERT INTO counters VALUES (2, 0) ON CONFLICT DO NOTHING');
    // Each transaction holds one row, then asks for the other's: PostgreSQL ends one of them (40P01).
    let holding = 0;
    let bothHold: () => void;
    const bothHolding = new Promise<void>((resolve) => (bothHold = resolve));
    const crossing = (first: number, second: number) =>
      prisma.$transaction(
        async (tx) => {
          await tx.$executeRawUnsafe('UPDATE counters SET n = n + 1 WHERE id = $1', first);
          if (++holding === 2) bothHold();
          await bothHolding;
          await tx.$executeRawUnsafe('UPDATE counters SET n = n + 1 WHERE id = $1', second);
        },
        { timeout: 30_000, maxWait: 30_000 },
      );
    const outcomes = await Promise.allSettled([crossing(1, 2), crossing(2, 1)]);
    const lost = outcomes.filter((outcome) => outcome.status === 'rejected').map((outcome) => (outcome as PromiseRejectedResult).reason as unknown);
    expect(lost).toHaveLength(1);
    expect(isContention(lost[0])).toBe(true);
    expect(isTransientError(lost[0])).toBe(true);
    expect(transientDependency(lost[0])).toBeNull();
    await prisma.$disconnect();
  });

  it('knows Redis away, a closed broker channel or connection, and another service unreachable', async () => {
    const cache = RedisCache.connect('redis://127.0.0.1:1', 'transient-errors:');
    cache.redis.on('error', () => {});
    try {
      expect(transientDependency(await failure(() => cache.get('k')))).toBe('cache');
    } finally {
      cache.redis.disconnect();
    }

    const brokerProxy = await startTcpProxy({ host: '127.0.0.1', port: 5672 });
    try {
      const connection = await amqp.connect(vhost.urlVia(brokerProxy.port));
      connection.on('error', () => {});
      const channel = await connection.createChannel();
      await channel.close();
      expect(transientDependency(await failure(() => channel.checkQueue('anything')))).toBe('message broker');
      const second = await connection.createChannel();
      second.on('error', () => {});
      const closedConnection = new Promise((resolve) => connection.once('close', resolve));
      brokerProxy.cutAll();
      await closedConnection;
      expect(transientDependency(await failure(() => second.checkQueue('anything')))).toBe('message broker');
    } finally {
      await brokerProxy.close();
    }

    const client = new ServiceClient({ baseUrl: 'http://127.0.0.1:1', signer: signerOf('notifications') });
    const unreachable = await failure(() => client.call(keyDelivery, { params: { keyId: 1 } }));
    expect(unreachable).toMatchObject({ name: 'ServiceCallError', status: 503 });
    expect(transientDependency(unreachable)).toBe('network');
  });

  it("leaves the code's own failures alone: a constraint, a bad statement, a bad event, a plain throw", async () => {
    const prisma = prismaOn(viaProxy);
    const duplicate = await failure(() => prisma.$executeRawUnsafe('INSERT INTO counters VALUES (1, 0)'));
    expect(isTransientError(duplicate)).toBe(false);
    expect(isTransientError(await failure(() => viaProxy.pool.query('SELECT * FROM missing_table')))).toBe(false);
    expect(isTransientError(await failure(() => prisma.$queryRawUnsafe('SELEC 1')))).toBe(false);
    expect(isTransientError(new UnprocessableEventError('bad payload'))).toBe(false);
    expect(isTransientError(new Error('boom'))).toBe(false);
    expect(isTransientError(undefined)).toBe(false);
  });
});
