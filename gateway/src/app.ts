import fastifyHelmet from '@fastify/helmet';
import { createServiceApp, identityKeysOf, type Logger, type ReadinessCheck, type ServiceApp } from '@bo/platform';
import type { AttemptCounter } from '@bo/platform/cache';
import { AuditLog } from '@bo/platform/audit';
import type { Database } from '@bo/platform/db';
import type { TransactionalDb } from '@bo/platform/events';
import { OutsideSystem } from '@bo/platform/outside';
import { cronEvery, registerRunRoutes, runKind, Runs, schedule, Scheduler } from '@bo/platform/runs';
import { OidcClient, oidcSystem } from './clients/oidc';
import { ServicePools } from './clients/service-pools';
import { isHttps, type GatewayConfig } from './config';
import { LoginLimiter } from './domain/login-limiter';
import { PublicReadCache } from './domain/public-read-cache';
import type { PrismaClient } from './generated/prisma/client';
import { identifyFromSession, registerAccessControl } from './plugins/access';
import { cachedReadAnswerer, registerProxy } from './plugins/proxy';
import { registerRequestLog } from './plugins/request-log';
import { registerSessions, sessionCookieName } from './plugins/sessions';
import { registerWebAssets } from './plugins/web-assets';
import { registerApiIndexRoutes } from './routes/api-index';
import { registerBackgroundWorkRoutes } from './routes/background-work';
import { registerConfigStatusRoute } from './routes/config-status';
import { registerCustomerLoginRoutes } from './routes/customer-login';
import { registerMigrationRoutes } from './routes/migration';
import { registerMonitoringRoutes } from './routes/monitoring';
import { registerOidcLoginRoutes } from './routes/oidc-login';
import { registerPasswordLoginRoutes } from './routes/password-login';
import { registerSessionRoutes } from './routes/session';
import { registerUserRoutes } from './routes/users';
import { AccountsStore } from './store/accounts-store';
import { requestLogRetention, RequestLogQueries, RequestLogWriter } from './store/request-log';
import { GATEWAY_SCHEMA } from './store/schema';
import { PrismaSessionStore } from './store/session-store';

export interface GatewayDeps {
  config: GatewayConfig;
  logger: Logger;
  prisma: PrismaClient;
  /** The pool under `prisma`: the database export reads through a cursor of its own. */
  database: Database;
  /** Sign-in attempt counts: Redis-backed when distributed, in memory when embedded. */
  attempts: AttemptCounter;
  readiness?: ReadinessCheck[];
  /** Validate replies against their contracts (tests). */
  checkReplies?: boolean;
}

const SWEEP_INTERVAL_MS = 10 * 60_000;

/** The gateway: sessions, sign-in, access control, routing to services, request log, web assets. */
export async function buildGateway(deps: GatewayDeps) {
  const { config } = deps;
  // The gateway states who a request is for with its own key; services accept people's identities from no other.
  const { signer } = identityKeysOf('gateway', config);
  const requestLog = new RequestLogWriter(deps.prisma, deps.logger);
  const cache = new PublicReadCache(config.PUBLIC_CACHE_TTL_MS);
  const app: ServiceApp = createServiceApp({
    service: 'gateway',
    logger: deps.logger,
    identify: identifyFromSession,
    readiness: deps.readiness,
    checkReplies: deps.checkReplies,
    // /ready and /metrics listen on OPS_PORT, never on the public port.
    separateOperations: true,
    timeouts: { headersMs: config.HTTP_HEADERS_TIMEOUT_MS, requestMs: config.HTTP_REQUEST_TIMEOUT_MS, keepAliveMs: config.HTTP_KEEP_ALIVE_TIMEOUT_MS },
    answerEarly: cachedReadAnswerer({ cache, sessionCookie: sessionCookieName(config), requestLog, metrics: () => app.metrics }),
  });
  const sessions = new PrismaSessionStore(deps.prisma);
  const accounts = new AccountsStore(deps.prisma);
  const requestLogQueries = new RequestLogQueries(deps.prisma);
  const pools = new ServicePools(config);
  const limiter = new LoginLimiter(deps.attempts);
  const oidc =
    config.OIDC_ISSUER_URL && config.OIDC_CLIENT_ID && config.OIDC_CLIENT_SECRET
      ? new OidcClient({
          issuer: config.OIDC_ISSUER_URL,
          clientId: config.OIDC_CLIENT_ID,
          clientSecret: config.OIDC_CLIENT_SECRET,
          redirectUri: new URL('/api/callback', config.PUBLIC_URL).href,
          allowMissingEmailVerified: config.OIDC_ALLOW_MISSING_EMAIL_VERIFIED,
        }, new OutsideSystem({ ...oidcSystem(config.OIDC_ISSUER_URL), registry: app.metrics.registry }))
      : null;

  // Over plain HTTP (a LAN address), "upgrade to HTTPS" would send every script and call to a port
  // that does not speak it: a blank page. Both are sent only when browsers reach us over HTTPS.
  const https = isHttps(config);
  await app.register(fastifyHelmet, {
    hsts: https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    contentSecurityPolicy: {
      directives: {
        upgradeInsecureRequests: https ? [] : null,
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"], // Chakra UI (emotion) injects style elements
        imgSrc: ["'self'", 'data:', 'https:'],
        connectSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
      },
    },
  });
  registerRequestLog(app, requestLog);
  await registerSessions(app, config, sessions, accounts);
  await registerAccessControl(app, config);

  registerSessionRoutes(app, { config, accounts });
  registerOidcLoginRoutes(app, { config, oidc, accounts, limiter });
  registerPasswordLoginRoutes(app, { config, accounts, limiter });
  registerCustomerLoginRoutes(app, { config, limiter, signer });
  registerUserRoutes(app, { accounts, sessions });
  registerMonitoringRoutes(app, requestLogQueries);
  registerConfigStatusRoute(app, { config, signer });
  registerApiIndexRoutes(app);
  // The gateway's own background work: its two sweeps, runs on the scheduler like every service's
  // (no bus here, so no progress events; the admin API and streams read the runs table).
  const db = deps.prisma as unknown as TransactionalDb;
  const runs = new Runs({ service: 'gateway', schema: GATEWAY_SCHEMA, db, logger: deps.logger });
  const scheduler = new Scheduler({ service: 'gateway', schema: GATEWAY_SCHEMA, db, runs, logger: deps.logger });
  const sweepSessions = schedule('session-sweep', cronEvery(SWEEP_INTERVAL_MS), runKind('session-sweep', async () => ({ deleted: await sessions.deleteExpired() }), { exclusive: true }));
  const schedules = [sweepSessions, requestLogRetention(deps.prisma).schedule];
  runs.register(schedules.map((entry) => entry.run));
  registerRunRoutes(app, { service: 'gateway', runs });
  registerBackgroundWorkRoutes(app, { config, signer, runs, scheduler, auditLog: new AuditLog({ service: 'gateway', schema: GATEWAY_SCHEMA, db }) });
  registerMigrationRoutes(app, { config, signer, database: deps.database, prisma: deps.prisma, runs });
  await registerProxy(app, { config, pools, cache, signer, sessions });
  await registerWebAssets(app, config.WEB_DIST_DIR);

  runs.start();
  await scheduler.start(schedules);
  app.addHook('onClose', async () => {
    await scheduler.stop();
    await runs.stop();
    await requestLog.close();
    await pools.close();
  });
  return app;
}
