import { AppError, anonymousIdentity, CORRELATION_HEADER, IDENTITY_HEADER, isTransientError, notFound, RETRY_AFTER_SECONDS, serviceUnavailable, type IdentitySigner } from '@bo/platform';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingHttpHeaders } from 'node:http';
import type { Dispatcher } from 'undici';
import type { ServicePools } from '../clients/service-pools';
import type { GatewayConfig } from '../config';
import { requestClientAddress } from '../domain/client-address';
import type { CachedResponse, PublicReadCache } from '../domain/public-read-cache';

// Connection-scoped headers (RFC 9110 7.6.1) and what the gateway owns: never copied across the hop.
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'host']);
const NOT_FORWARDED = new Set([...HOP_BY_HOP, 'cookie', IDENTITY_HEADER, CORRELATION_HEADER, 'x-forwarded-for', 'x-csrf-token']);
const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export interface ProxyDeps {
  config: GatewayConfig;
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

/**
 * Answers a kept public read before helmet, cookies, sessions and access control run: the kept
 * answer already carries every header the full path gave it, helmet's included. A request that
 * carries the session cookie takes the full path, so its session is still judged and touched.
 * Register it before those plugins.
 */
export function registerCachedReadShortcut(app: FastifyInstance, deps: { cache: PublicReadCache; sessionCookie: string }): void {
  const sessionCookie = `${deps.sessionCookie}=`;
  app.addHook('onRequest', (request, reply, done) => {
    if (request.method !== 'GET' || request.headers.cookie?.includes(sessionCookie)) return done();
    const cached = deps.cache.lookup(request.url);
    if (!cached) return done();
    reply.code(cached.statusCode).headers(cached.headers).send(cached.body);
  });
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

    scope.all('/api/*', { config: { access: 'public', proxied: true } }, async (request, reply) => {
      const match = request.routeMatch;
      const path = request.url.split('?', 1)[0];
      if (!match) throw notFound(`Route ${request.method} ${path} not found`);
      const service = match.service;

      if (match.contract.cacheable) {
        const cached = deps.cache.get(service, request.url);
        if (cached) return reply.code(cached.statusCode).headers(cached.headers).send(cached.body);
      }
      const generation = deps.cache.generation(service);
      const writes = STATE_CHANGING.has(request.method);
      if (writes) deps.cache.invalidate(service);

      const upstream = await deps.pools
        .get(service)
        .request({
          path: request.url,
          method: request.method as Dispatcher.HttpMethod,
          headers: upstreamHeaders(request, deps),
          body: request.method === 'GET' || request.method === 'HEAD' ? undefined : request.raw,
        })
        .catch((error: Error) => {
          request.log.warn({ err: error, service }, 'service unreachable');
          // Refused or reset (a restart, a replica going away): the caller may come back shortly.
          if (isTransientError(error) || (error as { code?: unknown }).code === 'UND_ERR_SOCKET') {
            reply.header('retry-after', String(RETRY_AFTER_SECONDS));
            throw serviceUnavailable(`Service ${service} is unavailable, try again shortly`);
          }
          throw new AppError(502, 'bad_gateway', `Service ${service} is unavailable`);
        });
      // Invalidate again once the write is done, so a read racing the write cannot keep the old answer.
      if (writes) deps.cache.invalidate(service);
      return sendUpstream(reply, upstream, match.contract.cacheable ? (body) => deps.cache.put(service, request.url, generation, body) : null);
    });
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

/** Everything this reply carries so far (upstream's and the gateway's own, e.g. helmet's), less the per-request id. */
function keptHeaders(reply: FastifyReply): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value !== undefined && name !== CORRELATION_HEADER) headers[name] = typeof value === 'number' ? String(value) : value;
  }
  return headers;
}
