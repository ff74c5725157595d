import { logText } from '@bo/platform';
import type { FastifyInstance } from 'fastify';
import type { RequestLogWriter } from '../store/request-log';

/** Every /api request goes to the request log; the writer batches, so nothing waits on the database. */
export function registerRequestLog(app: FastifyInstance, writer: RequestLogWriter): void {
  app.addHook('onResponse', (request, reply, done) => {
    const query = request.url.indexOf('?');
    const endpoint = query === -1 ? request.url : request.url.slice(0, query);
    if (endpoint === '/api' || endpoint.startsWith('/api/')) {
      // The path is the caller's own text: cut like any logged body.
      writer.record({ endpoint: logText(endpoint), method: request.method, statusCode: reply.statusCode, responseTime: Math.round(reply.elapsedTime), timestamp: new Date() });
    }
    done();
  });
}
