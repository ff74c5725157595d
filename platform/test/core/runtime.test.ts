import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ConfigError, createLogger } from '@bo/platform';
import type { EventTransport } from '@bo/platform/events';
import { connectInfrastructure, embeddedInfrastructure } from '@bo/platform/runtime';
import { identityEnv } from '@bo/platform/testing/identity';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const base = { NODE_ENV: 'test' as const, LOG_LEVEL: 'silent' as const, HOST: '127.0.0.1', PORT: 0, ALERT_CHECK_CRON: '30 * * * * *', ...identityEnv('pricing') };

describe('the distributed run never falls back to memory', () => {
  it('refuses to connect without REDIS_URL or AMQP_URL, naming each', async () => {
    const attempt = connectInfrastructure({ ...base, DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/postgres' }, 'demo', createLogger('demo', 'silent'));
    await expect(attempt).rejects.toThrow(ConfigError);
    await expect(attempt).rejects.toThrow(/REDIS_URL is required[\s\S]*AMQP_URL is required/);
  });

  it('stops a real service process at start with the reason, exit code 1', async () => {
    const env = {
      PATH: process.env.PATH,
      ...identityEnv('pricing'),
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/postgres',
      GOOGLE_SHEETS_SPREADSHEET_ID: 'sheet',
      GOOGLE_SERVICE_ACCOUNT_URL: 'http://127.0.0.1:9/key',
    };
    const run = promisify(execFile)(process.execPath, ['--import', 'tsx', path.join(root, 'services/pricing/src/main.ts')], { env, cwd: root, timeout: 30_000 });
    const failure = (await run.then(() => null, (error: { code: number; stderr: string }) => error))!;
    expect(failure.code).toBe(1);
    expect(failure.stderr).toContain('REDIS_URL is required outside the embedded run');
    expect(failure.stderr).toContain('AMQP_URL is required outside the embedded run');
  });
});

describe('the embedded run', () => {
  it('gives each service its own pool, cache and locks over the shared server and transport', async () => {
    const shared = { databaseUrl: 'postgres://postgres@127.0.0.1:5432/postgres', transport: {} as EventTransport }; // shared as is: only its identity matters here
    const pricing = await embeddedInfrastructure(shared);
    const shop = await embeddedInfrastructure(shared);
    await pricing.cache.set('prices:v1', 'pricing copy', 60);
    expect(await shop.cache.get('prices:v1')).toBeNull();
    // While pricing holds its lock, shop-sync's lock of the same name is free.
    const outcome = await pricing.lock.withLock('expiry-check', 10_000, () => shop.lock.withLock('expiry-check', 10_000, async () => 'ran'));
    expect(outcome).toEqual({ acquired: true, result: { acquired: true, result: 'ran' } });
    expect(pricing.transport).toBe(shop.transport);
    expect(pricing.database).not.toBe(shop.database);
    await pricing.close();
    await shop.close();
  });
});
