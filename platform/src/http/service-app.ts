import { randomUUID } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import Fastify, { LogController, type FastifyError, type FastifyInstance, type FastifyRequest } from 'fastify';
import { AppError, contentionConflict, dependencyUnavailable, isContention, isZodError, fromZodError, RETRY_AFTER_SECONDS, transientDependency, type ErrorReply } from '../errors';
import { clearAuditActor, runWithActorHolder, setAuditActor } from '../audit/actor';
import { adminNameOf, IDENTITY_HEADER, type Identity, type IdentityVerifier } from '../identity';
import { CORRELATION_HEADER, runWithCorrelationId, type Logger } from '../logging';
import { assertAccess, callerAddress } from './access';
import { JSON_DEPTH_MAX, jsonDepthExceeds, SERVICE_BODY_LIMIT_BYTES } from './hostile-input';
import { createMetrics, type Metrics } from './metrics';
import { ReadinessWatch, type ReadinessCheck } from './readiness';

export type { ReadinessCheck } from './readiness';

export interface ServiceAppOptions {
  service: string;
  logger: Logger;
  /** Checks the signed identity header (every domain service); services never trust an unsigned one. */
  verifier?: IdentityVerifier;
  /** Who is calling, instead of the header: the gateway answers from the session. */
  identify?: (request: FastifyRequest) => Identity | null;
  readiness?: ReadinessCheck[];
  bodyLimit?: number;
  /** Validate every JSON reply against its contract (tests turn it on; see serveRoute). */
  checkReplies?: boolean;
  /**
   * Serve /ready and /metrics on a separate operations app (`app.operations`) instead of this one:
   * the gateway's public port must not show them to the internet.
   */
  separateOperations?: boolean;
  /** Limits on slow clients (ms): headers, the whole request, and an idle kept-alive connection. Fastify's defaults when absent. */
  timeouts?: { headersMs: number; requestMs: number; keepAliveMs: number };
  /**
   * Answers a request off the network before Fastify sees it (no routing, hooks, logger or request
   * objects) when it returns true: the gateway's kept public reads, whose answer is already whole.
   * Whatever it answers, it records itself. `inject()` does not pass here.
   */
  answerEarly?: (request: IncomingMessage, response: ServerResponse) => boolean;
  /** The app's metrics when made before it (a service's outside calls report to them from its build step). */
  metrics?: Metrics;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export type ServiceApp = FastifyInstance & { metrics: Metrics; checkReplies: boolean; operations: FastifyInstance };

/**
 * The Fastify instance every service and the gateway start from: correlation ids, the error
 * model, identity and access checks, /health, /ready and /metrics.
 */
export function createServiceApp(options: ServiceAppOptions): ServiceApp {
  const app = Fastify({
    loggerInstance: options.logger,
    // Every /api request is recorded by the gateway's request log; per-request info lines would only repeat it.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: options.bodyLimit ?? SERVICE_BODY_LIMIT_BYTES,
    ...(options.timeouts && {
      requestTimeout: options.timeouts.requestMs,
      keepAliveTimeout: options.timeouts.keepAliveMs,
      // Node checks the header and request deadlines on this interval (30 s by default).
      http: { headersTimeout: options.timeouts.headersMs, connectionsCheckingInterval: Math.min(1_000, Math.ceil(options.timeouts.headersMs / 4)) },
    }),
    genReqId: correlationIdOf,
    ...(options.answerEarly && { serverFactory: serverAnsweringEarly(options.answerEarly) }),
  }) as unknown as ServiceApp;
  registerJsonParser(app);
  const metrics = options.metrics ?? createMetrics(options.service);
  app.decorate('metrics', metrics);
  app.decorate('checkReplies', options.checkReplies === true);
  app.decorateRequest('identity', null);
  app.decorateRequest('identityRefused', null);

  // No route without a declared access: a forgotten declaration fails at start, not in production.
  app.addHook('onRoute', (route) => {
    if (!route.config?.access) throw new Error(`${[route.method].flat().join(',')} ${route.url} declares no access (serve it through its contract)`);
  });

  // Everything after this hook runs inside the request's correlation context (logs, outgoing calls, events)
  // and with a holder for the admin the audit log names (audit/actor.ts).
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(CORRELATION_HEADER, request.id);
    runWithCorrelationId(request.id, () => runWithActorHolder(done), options.service);
  });

  const { identify, verifier } = options;
  if (!identify && !verifier) throw new Error('createServiceApp needs a verifier of the identity header (or identify)');
  const identifyAndCheck = (request: FastifyRequest) => {
    if (identify) request.identity = identify(request);
    else {
      const header = request.headers[IDENTITY_HEADER];
      const verdict = verifier!.check(typeof header === 'string' ? header : undefined);
      request.identity = verdict.identity;
      request.identityRefused = verdict.refused;
      // Only another process of ours sends this header (the gateway strips clients' copies): a refused one is worth a look.
      if (verdict.refused) request.log.warn({ refused: verdict.refused, url: request.url }, 'identity header refused');
    }
    // An unknown path is a plain 404 for anyone; every known route declares its access (see onRoute).
    if (!request.is404) assertAccess(request, request.routeOptions.config.access!);
    // An admin route that writes: every row it changes is an audit entry. The gateway resolved the
    // client's address itself (its TRUST_PROXY rules); a service reads the one the gateway forwarded.
    if (request.routeOptions.config.access === 'admin' && !SAFE_METHODS.has(request.method)) {
      setAuditActor({
        id: request.identity!.userId,
        name: adminNameOf(request.identity),
        address: identify ? request.ip : callerAddress(request),
        request: `${request.method} ${request.routeOptions.url}`,
        correlationId: request.id,
      });
    }
  };
  // A route that takes a whole file checks its caller before a byte of the body is read.
  const checkedEarly = new WeakSet<FastifyRequest>();
  app.addHook('preParsing', (request, _reply, payload, done) => {
    if (!request.routeOptions.config.contract?.upload) return done(null, payload);
    try {
      identifyAndCheck(request);
      checkedEarly.add(request);
      done(null, payload);
    } catch (error) {
      done(error as Error);
    }
  });
  app.addHook('preHandler', async (request) => {
    if (!checkedEarly.has(request)) identifyAndCheck(request);
  });

  // How long this process took (Server-Timing, for browsers' developer tools and the benches); a
  // proxied answer keeps the service's entry before the gateway's.
  app.addHook('onSend', (_request, reply, payload, done) => {
    // The answer is on its way: what the request left running is no longer its admin's doing.
    clearAuditActor();
    const own = `${options.service};dur=${reply.elapsedTime.toFixed(1)}`;
    const upstream = reply.getHeader('server-timing');
    reply.header('server-timing', upstream ? `${String(upstream)}, ${own}` : own);
    done(null, payload);
  });

  const readiness = new ReadinessWatch(options.readiness ?? [], options.logger);
  app.addHook('onClose', async () => readiness.close());

  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.httpDuration.observe({ method: request.method, route, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
    // /ready's 503 is a state, logged when it changes (ReadinessWatch), not once per probe; a refusal its code chose is logged by the error handler.
    if (reply.statusCode >= 500 && !reply.hasHeader('retry-after') && !loggedAlready.has(request)) request.log.error({ url: request.url, status: reply.statusCode }, 'request failed');
  });

  app.setErrorHandler((error: FastifyError | AppError | Error, request, reply) => {
    const dependency = error instanceof AppError ? null : transientDependency(error);
    if (dependency) {
      // A dependency is down: the caller (a browser, QPay) is told to come back, not that we broke.
      // Once readiness knows it is away (its one warn line), each refusal is only worth a debug line.
      if (readiness.knowsDown(dependency)) request.log.debug({ err: error, dependency }, 'dependency unavailable');
      else request.log.warn({ err: error, dependency }, 'dependency unavailable');
      readiness.noticed(dependency);
      reply.header('retry-after', String(RETRY_AFTER_SECONDS));
    }
    // Two writes that met are a conflict the caller can retry, not an outage.
    const contended = !dependency && !(error instanceof AppError) && isContention(error);
    if (contended) request.log.info({ err: error }, 'write met another made at the same time');
    const appError = dependency ? dependencyUnavailable(dependency) : contended ? contentionConflict() : toAppError(error);
    if (appError.status >= 500 && !dependency) {
      if (error instanceof AppError) {
        // A 5xx its code chose (an outside system refusing, a setting missing): an answer, not a bug.
        // Where a person must act, the code that threw it says so in a line of its own.
        request.log.info({ status: appError.status, code: appError.code, error: appError.message, url: request.url }, 'request refused');
        loggedAlready.add(request);
      } else request.log.error({ err: error }, 'unhandled error');
    }
    const body: ErrorReply = { error: appError.message };
    if (appError.details !== undefined) body.details = appError.details;
    return reply.code(appError.status).send(body);
  });

  app.setNotFoundHandler((request, reply) => reply.code(404).send({ error: `Route ${request.method} ${request.url.split('?')[0]} not found` }));

  const startedAt = Date.now();
  app.get('/health', { config: { access: 'public' } }, async () => {
    const memory = process.memoryUsage();
    return {
      status: 'healthy',
      service: options.service,
      timestamp: new Date().toISOString(),
      uptime: Math.round((Date.now() - startedAt) / 1000),
      memory: { rss: memory.rss, heapTotal: memory.heapTotal },
    };
  });

  const operations = options.separateOperations ? Fastify({ loggerInstance: options.logger }) : app;
  registerOperationsRoutes(operations as FastifyInstance, readiness, metrics);
  app.decorate('operations', operations as FastifyInstance);
  if (operations !== app) app.addHook('onClose', async () => void (await operations.close()));

  return app;
}

/** The caller's correlation id when it is a plain token, else a new one. */
export function correlationIdOf(request: IncomingMessage): string {
  const given = request.headers[CORRELATION_HEADER];
  return typeof given === 'string' && /^[\w.-]{1,100}$/.test(given) ? given : randomUUID();
}

/** The HTTP/1 server Fastify would make (its timeouts included), asking `answerEarly` first. */
function serverAnsweringEarly(answerEarly: NonNullable<ServiceAppOptions['answerEarly']>) {
  return (handler: (request: IncomingMessage, response: ServerResponse) => void, fastifyOptions: { http?: http.ServerOptions; keepAliveTimeout?: number; requestTimeout?: number; connectionTimeout?: number }) => {
    const server = http.createServer(fastifyOptions.http ?? {}, (request, response) => {
      if (!answerEarly(request, response)) handler(request, response);
    });
    if (fastifyOptions.keepAliveTimeout !== undefined) server.keepAliveTimeout = fastifyOptions.keepAliveTimeout;
    if (fastifyOptions.requestTimeout !== undefined) server.requestTimeout = fastifyOptions.requestTimeout;
    server.setTimeout(fastifyOptions.connectionTimeout ?? 0);
    return server;
  };
}

/**
 * Fastify's own JSON parser (prototype poisoning refused), behind a depth check on the text: a
 * body nested deeper than JSON_DEPTH_MAX is a 400 before anything is built from it.
 */
function registerJsonParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (jsonDepthExceeds(body as string)) return done(new AppError(400, 'bad_request', `Invalid body: JSON nested deeper than ${JSON_DEPTH_MAX} levels`), undefined);
    parse(request, body as string, done);
  });
}

function toAppError(error: FastifyError | AppError | Error): AppError {
  if (error instanceof AppError) return error;
  if (isZodError(error)) return fromZodError(error, 'request');
  const fastifyError = error as FastifyError;
  if (fastifyError.validation) return new AppError(400, 'bad_request', `Invalid request: ${fastifyError.message}`);
  if (fastifyError.statusCode && fastifyError.statusCode < 500) {
    return new AppError(fastifyError.statusCode, fastifyError.code ?? 'bad_request', fastifyError.message);
  }
  // A 500 never leaks a stack or an internal message.
  return new AppError(500, 'internal', 'Internal server error');
}

/**
 * Requests whose 5xx is already accounted for: /ready's (a state, logged when it changes) and a
 * refusal its code chose (an AppError, logged by the error handler), so not a "request failed".
 */
const loggedAlready = new WeakSet<FastifyRequest>();

/**
 * /ready (every dependency answers, else 503 naming the ones that do not; the watch logs when that
 * changes) and /metrics (Prometheus).
 */
function registerOperationsRoutes(target: FastifyInstance, readiness: ReadinessWatch, metrics: Metrics): void {
  target.get('/ready', { config: { access: 'public' } }, async (request, reply) => {
    const results = await readiness.check();
    const ready = results.every((r) => r.ok);
    if (!ready) loggedAlready.add(request);
    return reply.code(ready ? 200 : 503).send({ ready, checks: results });
  });

  target.get('/metrics', { config: { access: 'public' } }, async (_request, reply) =>
    reply.type(metrics.registry.contentType).send(await metrics.registry.metrics()),
  );
}
