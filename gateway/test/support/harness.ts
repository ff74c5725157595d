import { randomBytes } from 'node:crypto';
import { hash } from '@node-rs/argon2';
import { createLogger } from '@bo/platform';
import { RedisAttemptCounter, RedisCache } from '@bo/platform/cache';
import { createPrismaClient, openDatabase, type Database } from '@bo/platform/db';
import { createTestDatabase, type TestDatabase } from '@bo/platform/testing/database';
import { identityEnv } from '@bo/platform/testing/identity';
import { domainServiceNames, urlVariableOf } from '@bo/proto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildGateway } from '../../src/app';
import { gatewayEnvSchema, type GatewayConfig } from '../../src/config';
import { PrismaClient } from '../../src/generated/prisma/client';
import { AccountsStore } from '../../src/store/accounts-store';
import { GATEWAY_SCHEMA, migrateGateway } from '../../src/store/schema';
import { startUpstream, type Upstream } from './upstream';


export interface Harness {
  app: FastifyInstance;
  config: GatewayConfig;
  prisma: PrismaClient;
  upstream: Upstream;
  redisPrefix: string;
  redis: RedisCache;
  /** Rebuilds nothing: a second gateway on the same database, Redis and upstream (e.g. other settings). */
  buildAnother(env?: Record<string, string>): Promise<FastifyInstance>;
  close(): Promise<void>;
}

export const TEST_ENV = {
  NODE_ENV: 'test',
  LOG_LEVEL: 'silent',
  PORT: '0',
  PUBLIC_URL: 'http://127.0.0.1:3999',
  SESSION_SECRET: 'a-session-secret-of-at-least-32-characters!!',
  // This suite's gateway key (a test system in the same file knows its public half).
  ...identityEnv('gateway'),
  ADMIN_EMAILS: 'boss@example.com',
  REDIS_URL: 'redis://127.0.0.1:6379',
};

/** Every service's `<NAME>_URL` pointing at one address (the stand-in upstream, or nowhere). */
export const upstreamEnv = (url: string): Record<string, string> => Object.fromEntries(domainServiceNames.map((name) => [urlVariableOf(name), url]));

/** A gateway on its own PostgreSQL database, its own Redis key prefix and a stand-in upstream service. */
export async function startHarness(env: Record<string, string> = {}): Promise<Harness> {
  const testDb: TestDatabase = await createTestDatabase('gateway');
  const database: Database = await openDatabase(testDb.config);
  await migrateGateway(database);
  const prisma = createPrismaClient(PrismaClient, database, GATEWAY_SCHEMA);
  const upstream = await startUpstream();
  const redisPrefix = `gwtest:${randomBytes(6).toString('hex')}:`;
  const redis = RedisCache.connect(TEST_ENV.REDIS_URL, redisPrefix);
  const apps: FastifyInstance[] = [];
  const build = async (extra: Record<string, string>) => {
    const config = gatewayEnvSchema.parse({ ...TEST_ENV, ...upstreamEnv(upstream.url), DATABASE_URL: testDb.url, ...env, ...extra });
    const app = await buildGateway({ config, logger: createLogger('gateway', 'silent'), prisma, database, attempts: new RedisAttemptCounter(redis.redis, redisPrefix), checkReplies: true });
    apps.push(app);
    return { app, config };
  };
  const { app, config } = await build({});
  return {
    app,
    config,
    prisma,
    upstream,
    redisPrefix,
    redis,
    buildAnother: async (extra = {}) => (await build(extra)).app,
    close: async () => {
      await Promise.all(apps.map((a) => a.close()));
      const keys = await redis.redis.keys(`${redisPrefix}*`);
      if (keys.length) await redis.redis.del(...keys);
      await redis.close();
      await upstream.close();
      await prisma.$disconnect();
      await database.close();
      await testDb.drop();
    },
  };
}

/** The `name=value` of the session cookie a response set, for the next request's Cookie header. */
export function sessionCookie(response: LightMyRequestResponse, name = 'sid'): string {
  const cookie = response.cookies.find((c) => c.name === name);
  if (!cookie) throw new Error(`no ${name} cookie in ${JSON.stringify(response.headers['set-cookie'])}`);
  return `${name}=${cookie.value}`;
}

export async function createLocalAdmin(prisma: PrismaClient, username = 'root', password = 'correct horse battery') {
  await new AccountsStore(prisma).upsertLocalAdmin(username, await hash(password));
  return { username, password };
}

/** Signs in a local admin by password; returns the Cookie header value and a CSRF token for it. */
export async function signInLocalAdmin(app: FastifyInstance, prisma: PrismaClient, username = 'root') {
  const credentials = await createLocalAdmin(prisma, username);
  const login = await app.inject({ method: 'POST', url: '/api/admin/login', payload: credentials });
  if (login.statusCode !== 200) throw new Error(`login failed: ${login.statusCode} ${login.body}`);
  const cookie = sessionCookie(login);
  const csrf = await app.inject({ method: 'GET', url: '/api/auth/csrf', headers: { cookie } });
  return { cookie, csrfToken: (csrf.json() as { token: string }).token };
}

/** A signed-in non-admin: an OIDC user whose e-mail is not in ADMIN_EMAILS, with a session row written as the callback would. */
export async function signInAsNonAdmin(h: Harness, email = 'staff@example.com'): Promise<string> {
  const user = await h.prisma.user.create({ data: { email, isAdmin: false } });
  const admin = await signInLocalAdmin(h.app, h.prisma, `matrix-admin-${email}`);
  const sid = decodeURIComponent(admin.cookie.slice('sid='.length)).split('.')[0];
  const now = Date.now();
  await h.prisma.session.update({ where: { sid }, data: { sess: { cookie: { path: '/', httpOnly: true, sameSite: 'lax', secure: false }, auth: { kind: 'user', userId: user.id, email: user.email, isAdmin: false, method: 'oidc' }, createdAt: now, lastSeenAt: now } } });
  return admin.cookie;
}

/** A signed-in customer limited to one key, with a session row written as customer sign-in would (streaming-keys is a stand-in here). */
export async function signInAsCustomer(h: Harness, keyId = 41, email = 'nfx.account1@example.mn'): Promise<{ cookie: string; csrfToken: string }> {
  const admin = await signInLocalAdmin(h.app, h.prisma, `matrix-customer-${keyId}`);
  const sid = decodeURIComponent(admin.cookie.slice('sid='.length)).split('.')[0];
  const now = Date.now();
  await h.prisma.session.update({ where: { sid }, data: { sess: { cookie: { path: '/', httpOnly: true, sameSite: 'lax', secure: false }, auth: { kind: 'customer', userId: `customer:${keyId}`, email, isAdmin: false, method: 'key', keyId }, createdAt: now, lastSeenAt: now } } });
  const csrf = await h.app.inject({ method: 'GET', url: '/api/auth/csrf', headers: { cookie: admin.cookie } });
  return { cookie: admin.cookie, csrfToken: (csrf.json() as { token: string }).token };
}
