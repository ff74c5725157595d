import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { DatabaseConfig } from '../db/database';

const serverUrl = 'postgres://postgres@127.0.0.1:5432';

export type TestDatabase = { url: string; config: DatabaseConfig; drop(): Promise<void> };

/** A fresh, empty PostgreSQL database `<prefix>_<random>` on the local server, for one test suite. */
export async function createTestDatabase(prefix: string): Promise<TestDatabase> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`.toLowerCase().replace(/[^a-z0-9_]/g, '_');
  await onServer(`CREATE DATABASE "${name}"`);
  const url = `${serverUrl}/${name}`;
  return {
    url,
    config: { kind: 'postgres', url },
    drop: () => onServer(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}

async function onServer(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: `${serverUrl}/postgres` });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
