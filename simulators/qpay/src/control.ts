import type { FaultBook } from '@bo/sim-kit';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { qpayBases } from './api';
import { deliverCallbacks } from './callbacks';
import { QpayError } from './errors';
import { createInvoice } from './invoices';
import { recordPayment } from './payments';
import type { QpayEnv, QpayState } from './state';

const optionsSchema = z
  .object({
    clients: z.array(z.object({ clientId: z.string().min(1), clientSecret: z.string().min(1) })).min(1),
    invoiceCodes: z.array(z.string().min(1)).min(1),
    merchantName: z.string().min(1),
    merchantCity: z.string().min(1),
    tokenTtlSeconds: z.number().positive(),
    refreshTtlSeconds: z.number().positive(),
    paidStatus: z.enum(['CLOSED', 'PAID']),
    badBasicError: z.enum(['AUTHENTICATION_FAILED', 'CLIENT_NOTFOUND']),
    noCredentialsError: z.enum(['NO_CREDENDIALS', 'NO_CREDENTIALS']),
    notFoundStatus: z.union([z.literal(400), z.literal(404)]),
    cancelErrorStatus: z.number().int().min(400).max(499),
    defaultCallback: z.enum(['get', 'post', 'none']),
    callbackTimeoutMs: z.number().int().positive(),
  })
  .partial();

const paySchema = z.object({
  amount: z.number().positive().optional(),
  /** P2P (a bank app's transfer, the default) or CARD (the one kind QPay can refund). */
  type: z.enum(['P2P', 'CARD']).default('P2P'),
  callback: z.enum(['get', 'post', 'none']).optional(),
  duplicates: z.number().int().min(1).max(20).default(1),
  delayMs: z.number().int().min(0).max(600_000).default(0),
  /** Answer only after the callbacks were delivered; default: when there is no delay. */
  wait: z.boolean().optional(),
});

const newInvoiceSchema = z.object({
  env: z.enum(['production', 'sandbox']).default('production'),
  amount: z.number().positive().default(35_000),
  description: z.string().min(1).default('Netflix Premium 1 сар'),
  sender_invoice_no: z.string().min(1).default(() => `SIM-${Date.now()}`),
  callback_url: z.string().url().default('http://127.0.0.1:1/qpay/callback'),
  allow_partial: z.boolean().default(false),
});

const faultPresetSchema = z.object({
  kind: z.enum(['system_busy', 'bad_gateway_html', 'slow', 'reset']),
  /** Route under the base, e.g. "/invoice" or "/payment/check"; every route when absent. */
  route: z.string().startsWith('/').default(''),
  env: z.enum(['production', 'sandbox', 'both']).default('both'),
  method: z.string().optional(),
  times: z.number().int().positive().optional(),
  delayMs: z.number().int().min(0).max(120_000).default(65_000),
});

/** QPay-shaped kit fault rules (one per base) for the doc's fault list. */
export function qpayFaultRules(input: z.input<typeof faultPresetSchema>) {
  const preset = faultPresetSchema.parse(input);
  const envs: QpayEnv[] = preset.env === 'both' ? ['production', 'sandbox'] : [preset.env];
  const shape = {
    system_busy: { kind: 'status', status: 500, body: { error: 'SYSTEM_BUSY', message: 'System busy' } },
    bad_gateway_html: { kind: 'html', status: 502 },
    slow: { kind: 'slow', delayMs: preset.delayMs },
    reset: { kind: 'drop' },
  }[preset.kind];
  return envs.map((env) => ({ ...shape, pathPrefix: qpayBases[env] + preset.route, method: preset.method, times: preset.times }));
}

const parse = <T>(schema: z.ZodType<T>, body: unknown): T => {
  const parsed = schema.safeParse(body ?? {});
  if (!parsed.success) throw new QpayError(400, { error: 'invalid request', details: parsed.error.issues });
  return parsed.data;
};

/** /__sim/ routes: options, token revocation, invoices (create, pay), callbacks seen, QPay fault presets. */
export function registerControlRoutes(app: FastifyInstance, state: QpayState, faults: FaultBook): void {
  app.register(async (scope) => {
    scope.setErrorHandler((error, _request, reply) =>
      error instanceof QpayError ? reply.code(error.status).send(error.body) : reply.code(500).send({ error: String(error) }),
    );

    scope.get('/options', async () => state.options);
    scope.post('/options', async (request) => Object.assign(state.options, parse(optionsSchema, request.body)));

    scope.post('/tokens/revoke', async (request) => {
      const { kind } = parse(z.object({ kind: z.enum(['access', 'refresh']).optional() }), request.body);
      return { revoked: state.revokeTokens(kind) };
    });

    scope.get('/invoices', async () => ({ invoices: [...state.invoices.values()].map((i) => ({ ...i, status: state.statusOf(i) })) }));
    scope.post('/invoices', async (request) => {
      const input = parse(newInvoiceSchema, request.body);
      const { env, description, ...rest } = input;
      const invoice = { invoice_code: state.options.invoiceCodes[0], invoice_receiver_code: 'terminal', invoice_description: description, ...rest };
      return createInvoice(state, env, state.options.clients[0].clientId, invoice);
    });
    scope.post<{ Params: { id: string } }>('/invoices/:id/pay', async (request, reply) => {
      const invoice = state.invoices.get(request.params.id);
      if (!invoice) return reply.code(404).send({ error: 'invoice not found' });
      const plan = parse(paySchema, request.body);
      const payment = recordPayment(state, invoice, plan.amount, plan.type);
      const delivering = deliverCallbacks(state, invoice, payment, { method: plan.callback ?? state.options.defaultCallback, copies: plan.duplicates, delayMs: plan.delayMs });
      const view = { payment_id: payment.paymentId, amount: payment.amount, invoice_status: state.statusOf(invoice) };
      if (plan.wait ?? plan.delayMs === 0) return { ...view, callbacks: await delivering };
      void delivering;
      return { ...view, callbacks: 'pending' };
    });

    scope.get('/callbacks', async () => ({ callbacks: state.callbacks }));
    scope.post('/faults/preset', async (request) => ({ faults: qpayFaultRules(parse(faultPresetSchema, request.body)).map((rule) => faults.add(rule)) }));
  }, { prefix: '/__sim' });
}
