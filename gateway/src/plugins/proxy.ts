import { Transform } from 'node:stream';
import { AppError, anonymousIdentity, badRequest, CORRELATION_HEADER, correlationIdOf, IDENTITY_HEADER, isTransientError, notFound, RETRY_AFTER_SECONDS, SERVICE_BODY_LIMIT_BYTES, serviceUnavailable, WEBHOOK_BODY_LIMIT_BYTES, type IdentitySigner, type Metrics } from '@bo/platform';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { Dispatcher } from 'undici';
import type { ServicePools } from '../clients/service-pools';
import type { GatewayConfig } from '../config';
import { requestClientAddress } from '../domain/client-address';
import type { CachedResponse, PublicReadCache } from '../domain/public-read-cache';
import type { RequestLogWriter } from '../store/request-log';
import { requestLogRow } from './request-log';

// Connection-scoped headers (RFC 9110 7.6.1) and what the gateway owns: never copied across the hop.
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'host']);
const NOT_FORWARDED = new Set([...HOP_BY_HOP, 'cookie', IDENTITY_HEADER, CORRELATION_HEADER, 'x-forwarded-for', 'x-csrf-token']);
const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** How often a passing event stream checks that the session it was opened in still stands. */
export const STREAM_SESSION_CHECK_MS = 5_000;

export interface ProxyDeps {
  config: GatewayConfig;
  /** A stream (server-sent events) ends when the session that opened it does. */
  sessions: { isAlive(sid: string): Promise<boolean> };
  /** The gateway's own key: the identity of every forwarded request is signed with it (a header kept per identity, see IdentitySigner). */
  signer: IdentitySigner;
  pools: ServicePools;
  cache: PublicReadCache;
}

function upstreamHeaders(request: FastifyRequest, { config, signer }: ProxyDeps): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(request.headers as IncomingHttpHeaders)) {
    if (value !== undefined && !NOT_FORWARDED.has(name)) headers[name] = value;
  }
  headers[IDENTITY_HEADER] = signer.sign(request.identity ?? anonymousIdentity());
  headers[CORRELATION_HEADER] = request.id;
  headers['x-forwarded-for'] = requestClientAddress(request, config.TRUST_PROXY);
  return headers;
}

function replyHeaders(headers: Dispatcher.ResponseData['headers']): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name) && name !== CORRELATION_HEADER) out[name] = value;
  }
  return out;
}

/** The route every proxied request is counted under in the metrics, answered early or not. */
export const PROXY_ROUTE = '/api/*';

export interface CachedReadDeps {
  cache: PublicReadCache;
  sessionCookie: string;
  requestLog: RequestLogWriter;
  metrics: () => Metrics;
}

/**
 * Answers a kept public read as it comes off the network, before Fastify (createServiceApp's
 * answerEarly): the kept answer already carries every header the full path gave it, helmet's
 * included, so the read pays for no routing, hooks, session or identity signing. A request that
 * carries the session cookie takes the full path, so its session is still judged and touched.
 * It is counted in the request log and the metrics as the full path counts it.
 */
export function cachedReadAnswerer(deps: CachedReadDeps): (request: IncomingMessage, response: ServerResponse) => boolean {
  const sessionCookie = `${deps.sessionCookie}=`;
  // What each kept answer's early replies share, worked out once per answer: its headers as the
  // flat list writeHead takes whole (name, value, …; headers given to writeHead alone are checked
  // once, while any set before it sends every one through setHeader first), the correlation id's
  // value last; and its row's endpoint in the request log (one answer is kept per URL).
  const shared = new WeakMap<CachedResponse, { headers: string[]; endpoint: string | null }>();
  const sharedOf = (cached: CachedResponse, url: string) => {
    let parts = shared.get(cached);
    if (!parts) {
      const headers = Object.entries(cached.headers).flatMap(([name, value]) => [value].flat().flatMap((one) => [name, one]));
      headers.push(CORRELATION_HEADER, '');
      parts = { headers, endpoint: requestLogRow(url, 'GET', cached.statusCode, 0)?.endpoint ?? null };
      shared.set(cached, parts);
    }
    return parts;
  };
  return (request, response) => {
    const url = request.url;
    if (request.method !== 'GET' || url === undefined || request.headers.cookie?.includes(sessionCookie)) return false;
    const cached = deps.cache.lookup(url);
    if (!cached) return false;
    const started = performance.now();
    const { headers, endpoint } = sharedOf(cached, url);
    headers[headers.length - 1] = correlationIdOf(request); // writeHead copies what it is given at once
    response.writeHead(cached.statusCode, headers);
    response.end(cached.body);
    const elapsedMs = performance.now() - started;
    if (endpoint !== null) deps.requestLog.record({ endpoint, method: 'GET', statusCode: cached.statusCode, responseTime: Math.round(elapsedMs), at: Date.now() });
    deps.metrics().httpDuration.observe({ method: 'GET', route: PROXY_ROUTE, status: String(cached.statusCode) }, elapsedMs / 1000);
    return true;
  };
}

/**
 * Forwards every /api request a service's contract declares (routing-table.ts) through that service's pool.
 * Bodies stream both ways (server-sent events pass through unbuffered), except cacheable public
 * reads, which are buffered so the gateway can answer the next ones from memory.
 */
export async function registerProxy(app: FastifyInstance, deps: ProxyDeps): Promise<void> {
  await app.register(async (scope) => {
    // Request bodies are forwarded as they arrive, never parsed here.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));

    scope.all(PROXY_ROUTE, { config: { access: 'public', proxied: true } }, async (request, reply) => {
      const match = request.routeMatch;
      const path = request.url.split('?', 1)[0];
      if (!match) throw notFound(`Route ${request.method} ${path} not found`);
      const service = match.service;

      if (match.contract.cacheable) {
        const cached = deps.cache.get(service, request.url);
        if (cached) return reply.code(cached.statusCode).headers(cached.headers).send(cached.body);
      }
      const bodyless = request.method === 'GET' || request.method === 'HEAD';
      // A public webhook's body is anyone's: read whole (it is small) and refused past the limit before the service sees a byte.
      // Any other body streams through, counted against what the service would take.
      const streamed = bodyless || match.contract.webhook ? null : countedBody(request, reply);
      const body = bodyless ? undefined : (streamed?.body ?? (await webhookBody(request, reply)));
      const generation = deps.cache.generation(service);
      const writes = STATE_CHANGING.has(request.method);
      if (writes) deps.cache.invalidate(service);

      const upstream = await deps.pools
        .get(service)
        .request({
          path: request.url,
          method: request.method as Dispatcher.HttpMethod,
          headers: upstreamHeaders(request, deps),
          body,
        })
        .catch((error: Error) => {
          // The body passed the service's limit on its way: refused here, whatever the service did with the part it got.
          if (streamed?.exceeded()) throw refuseTooLarge(reply, SERVICE_BODY_LIMIT_BYTES);
          // The rest of the body will never be read: the connection cannot carry another request.
          if (streamed && !request.raw.readableEnded) reply.header('connection', 'close');
          request.log.warn({ err: error, service }, 'service unreachable');
          // Refused or reset (a restart, a replica going away): the caller may come back shortly.
          if (isTransientError(error) || (error as { code?: unknown }).code === 'UND_ERR_SOCKET') {
            reply.header('retry-after', String(RETRY_AFTER_SECONDS));
            throw serviceUnavailable(`Service ${service} is unavailable, try again shortly`);
          }
          throw new AppError(502, 'bad_gateway', `Service ${service} is unavailable`);
        });
      // The service answered before taking the whole body: the rest is never read, so the connection cannot carry another request.
      if (streamed && !request.raw.readableEnded) {
        request.raw.unpipe(streamed.body);
        reply.header('connection', 'close');
      }
      // Invalidate again once the write is done, so a read racing the write cannot keep the old answer.
      if (writes) deps.cache.invalidate(service);
      if (match.contract.replyKind === 'stream') endWithSession(request, reply, upstream, deps.sessions);
      return sendUpstream(reply, upstream, match.contract.cacheable ? (body) => deps.cache.put(service, request.url, generation, body) : null);
    });
  });
}

/**
 * Ends a passing stream once the session it was opened in is gone (logout, terminated, disabled,
 * timed out): a stream would otherwise go on showing an account's data after it signed out.
 */
function endWithSession(request: FastifyRequest, reply: FastifyReply, upstream: Dispatcher.ResponseData, sessions: ProxyDeps['sessions']): void {
  const sid = request.session?.sessionId;
  if (!sid) return;
  const check = setInterval(() => {
    sessions
      .isAlive(sid)
      .then((alive) => {
        if (alive) return;
        clearInterval(check);
        upstream.body.destroy();
        if (!reply.raw.writableEnded) reply.raw.end();
      })
      .catch((error) => request.log.warn({ err: error }, 'could not check the session of a stream'));
  }, STREAM_SESSION_CHECK_MS);
  reply.raw.on('close', () => clearInterval(check));
}

/** 413, closing the connection: the unread rest of the body is never waited for. */
function refuseTooLarge(reply: FastifyReply, limit: number): AppError {
  reply.header('connection', 'close');
  return new AppError(413, 'payload_too_large', `Request body is too large (at most ${limit} bytes)`);
}

/**
 * A forwarded body as it streams, counted: a Content-Length past the service's limit is refused
 * unread; a chunked body that passes it is cut off (the service never gets it whole) and refused.
 */
function countedBody(request: FastifyRequest, reply: FastifyReply): { body: Transform; exceeded(): boolean } {
  if (Number(request.headers['content-length'] ?? 0) > SERVICE_BODY_LIMIT_BYTES) throw refuseTooLarge(reply, SERVICE_BODY_LIMIT_BYTES);
  let size = 0;
  const body = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      size += chunk.length;
      if (size > SERVICE_BODY_LIMIT_BYTES) callback(new Error('request body too large'));
      else callback(null, chunk);
    },
  });
  // On the counter's error the source is unpiped and left unread; the reply closes the connection.
  request.raw.pipe(body);
  return { body, exceeded: () => size > SERVICE_BODY_LIMIT_BYTES };
}

/**
 * A webhook's body, at most WEBHOOK_BODY_LIMIT_BYTES: a larger Content-Length is refused unread,
 * and a chunked body is counted as it arrives and refused once it passes the limit. The
 * connection is closed after a refusal, so the unread rest is never waited for.
 */
function webhookBody(request: FastifyRequest, reply: FastifyReply): Promise<Buffer> {
  const refuse = () => refuseTooLarge(reply, WEBHOOK_BODY_LIMIT_BYTES);
  if (Number(request.headers['content-length'] ?? 0) > WEBHOOK_BODY_LIMIT_BYTES) return Promise.reject(refuse());
  const raw = request.raw;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => {
      raw.off('data', onData).off('end', onEnd).off('error', onError);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= WEBHOOK_BODY_LIMIT_BYTES) return void chunks.push(chunk);
      // Left unread: the reply closes the connection.
      done();
      raw.pause();
      reject(refuse());
    };
    const onEnd = () => {
      done();
      resolve(Buffer.concat(chunks));
    };
    const onError = () => {
      done();
      reject(badRequest('The request body could not be read'));
    };
    raw.on('data', onData).on('end', onEnd).on('error', onError);
  });
}

async function sendUpstream(reply: FastifyReply, upstream: Dispatcher.ResponseData, keep: ((response: CachedResponse) => void) | null) {
  const headers = replyHeaders(upstream.headers);
  reply.code(upstream.statusCode).headers(headers);
  if (!keep || String(headers['content-type'] ?? '').includes('text/event-stream')) return reply.send(upstream.body);
  const body = Buffer.from(await upstream.body.arrayBuffer());
  keep({ statusCode: upstream.statusCode, headers: keptHeaders(reply), body });
  return reply.send(body);
}

/** Everything this reply carries so far (upstream's and the gateway's own, e.g. helmet's), less what belongs to this one request. */
function keptHeaders(reply: FastifyReply): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value !== undefined && name !== CORRELATION_HEADER && name !== 'server-timing') headers[name] = typeof value === 'number' ? String(value) : value;
  }
  return headers;
}
