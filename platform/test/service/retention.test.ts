import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import cron from 'node-cron';
import { LOG_RETENTION_MS, logRetention } from '@bo/platform/service';
import { createTestSqlDatabase, type TestSqlDatabase } from '@bo/platform/testing/pg-sql';

let database: TestSqlDatabase;
beforeAll(async () => {
  database = await createTestSqlDatabase('log_retention');
  await database.db.$executeRawUnsafe('CREATE SCHEMA logs');
  await database.db.$executeRawUnsafe('CREATE TABLE logs.hook_logs (id serial PRIMARY KEY, created_at timestamptz NOT NULL DEFAULT now())');
  await database.db.$executeRawUnsafe('CREATE TABLE logs.fetch_logs (id serial PRIMARY KEY, at timestamptz NOT NULL DEFAULT now())');
});
afterAll(() => database?.drop());

const DAY = 24 * 3_600_000;
const count = async (table: string) => Number((await database.db.$queryRawUnsafe<{ n: bigint }[]>(`SELECT count(*) AS n FROM logs.${table}`))[0].n);
/** `rows` rows `ageMs` old. */
const insert = (table: string, column: string, rows: number, ageMs: number) =>
  database.db.$executeRawUnsafe(`INSERT INTO logs.${table} (${column}) SELECT now() - $1::bigint * interval '1 millisecond' FROM generate_series(1, $2::int)`, ageMs, rows);

describe('the log retention job', () => {
  it('keeps 30 days: deletes older rows of every table named, in batches, and nothing younger', async () => {
    expect(LOG_RETENTION_MS).toBe(30 * DAY);
    await insert('hook_logs', 'created_at', 12_000, 31 * DAY);
    await insert('hook_logs', 'created_at', 3, 29 * DAY);
    await insert('fetch_logs', 'at', 2, 45 * DAY);
    await insert('fetch_logs', 'at', 4, DAY);
    const job = logRetention({ db: database.db, schema: 'logs', tables: [{ table: 'hook_logs', column: 'created_at' }, { table: 'fetch_logs', column: 'at' }] });
    expect(await job.sweep()).toEqual({ hook_logs: 12_000, fetch_logs: 2 });
    expect(await count('hook_logs')).toBe(3);
    expect(await count('fetch_logs')).toBe(4);
    expect(await job.sweep()).toEqual({ hook_logs: 0, fetch_logs: 0 });
  });

  it('is an hourly schedule whose run sweeps and answers the counts', async () => {
    await insert('hook_logs', 'created_at', 5, 40 * DAY);
    const retention = logRetention({ db: database.db, schema: 'logs', tables: [{ table: 'hook_logs', column: 'created_at' }] });
    expect(cron.validate(retention.schedule.expression)).toBe(true);
    expect(retention.schedule.run.kind).toBe('log-retention');
    expect(retention.schedule.run.exclusive).toBe(true);
    expect(await retention.schedule.run.execute(undefined as never)).toEqual({ hook_logs: 5 });
    expect(await count('hook_logs')).toBe(3);
  });

  it('refuses a table or column name that is not a plain identifier', () => {
    expect(() => logRetention({ db: database.db, schema: 'logs', tables: [{ table: 'x; DROP TABLE y', column: 'at' }] })).toThrow(/invalid/);
  });
});
