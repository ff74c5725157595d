import type { FastifyInstance, FastifyRequest } from 'fastify';
import { checkBasic, checkBearer, issueTokens } from './auth';
import { QpayError } from './errors';
import { cancelInvoice, createInvoice, findInvoice, invoiceView } from './invoices';
import { checkPayments, paymentView, refundPayment } from './payments';
import type { QpayEnv, QpayState } from './state';

/** Production at /v2, sandbox at /sandbox/v2: point the "production" and "sandbox" base URL settings there. */
export const qpayBases: Record<QpayEnv, string> = { production: '/v2', sandbox: '/sandbox/v2' };

type IdParams = { Params: { id: string } };

function registerEnvironment(scope: FastifyInstance, state: QpayState, env: QpayEnv): void {
  // Clients often POST /auth/token with a JSON content type and no body; QPay accepts that.
  scope.removeContentTypeParser('application/json');
  scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, body === '' ? {} : JSON.parse(body as string));
    } catch {
      done(Object.assign(new Error('invalid JSON body'), { statusCode: 400 }), undefined);
    }
  });
  scope.setErrorHandler((error, _request, reply) => {
    if (error instanceof QpayError) return reply.code(error.status).send(error.body);
    const status = (error as { statusCode?: number }).statusCode ?? 500;
    return reply.code(status).send(status >= 500 ? { error: 'SYSTEM_BUSY', message: 'System busy' } : { error: 'INVALID_REQUEST', message: error instanceof Error ? error.message : String(error) });
  });

  const bearer = (request: FastifyRequest) => checkBearer(state, env, request.headers.authorization, 'access');

  scope.post('/auth/token', async (request) => issueTokens(state, env, checkBasic(state, request.headers.authorization)));
  scope.post('/auth/refresh', async (request) => issueTokens(state, env, checkBearer(state, env, request.headers.authorization, 'refresh').clientId));
  scope.post('/invoice', async (request) => createInvoice(state, env, bearer(request).clientId, request.body));
  scope.get<IdParams>('/invoice/:id', async (request) => {
    bearer(request);
    return invoiceView(state, findInvoice(state, env, request.params.id));
  });
  scope.delete<IdParams>('/invoice/:id', async (request) => {
    bearer(request);
    return cancelInvoice(state, findInvoice(state, env, request.params.id));
  });
  scope.post('/payment/check', async (request) => checkPayments(state, env, bearer(request).clientId, request.body));
  scope.get<IdParams>('/payment/:id', async (request) => {
    bearer(request);
    return paymentView(state, env, request.params.id);
  });
  scope.delete<IdParams>('/payment/refund/:id', async (request) => {
    bearer(request);
    return refundPayment(state, env, request.params.id);
  });
}

export function registerQpayApi(app: FastifyInstance, state: QpayState): void {
  for (const [env, prefix] of Object.entries(qpayBases) as [QpayEnv, string][]) {
    app.register(async (scope) => registerEnvironment(scope, state, env), { prefix });
  }
}
