import { logText } from '@bo/platform';
import type { FastifyInstance } from 'fastify';
import type { LoggedRequest, RequestLogWriter } from '../store/request-log';

/** The request log's row for a request, or null when it is not an /api request. */
export function requestLogRow(url: string, method: string, statusCode: number, elapsedMs: number): LoggedRequest | null {
  const query = url.indexOf('?');
  const endpoint = query === -1 ? url : url.slice(0, query);
  if (endpoint !== '/api' && !endpoint.startsWith('/api/')) return null;
  // The path is the caller's own text: cut like any logged body.
  return { endpoint: logText(endpoint), method, statusCode, responseTime: Math.round(elapsedMs), at: Date.now() };
}

/** Every /api request goes to the request log; the writer batches, so nothing waits on the database. */
export function registerRequestLog(app: FastifyInstance, writer: RequestLogWriter): void {
  app.addHook('onResponse', (request, reply, done) => {
    const row = requestLogRow(request.url, request.method, reply.statusCode, reply.elapsedTime);
    if (row) writer.record(row);
    done();
  });
}
