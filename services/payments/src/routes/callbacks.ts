import type { FastifyInstance } from 'fastify';
import { AppError, forbidden, isTransientError, notFound, nulPath, serveRoute } from '@bo/platform';
import { qpayCallbackGet, qpayCallbackLegacy, qpayCallbackParams, qpayCallbackPost } from '@bo/proto';
import { sameToken } from '../domain/invoices';
import type { QpayInvoice } from '../generated/prisma/client';
import { invoiceStore, logStore } from '../store/invoice-store';
import type { PaymentsRouteDeps } from './deps';

/** The legacy door asks QPay about one invoice at most this often (issue 18 §2), whoever calls it how often. */
export const LEGACY_CHECK_INTERVAL_MS = 10_000;

interface Callback {
  /** Our invoice id from the path, or any id a body names (ours or QPay's). */
  id: string;
  /** The per-invoice token of the callback URL; required on the paths QPay is given. */
  token: string | undefined;
  /** The paths QPay is given carry a token; the legacy path has none, so its checks are rationed instead. */
  requireToken: boolean;
  /** What was sent, without the token, for the log. */
  request: Record<string, unknown>;
}

/**
 * QPay's callbacks (ADR 14). A callback is a hint, never believed: the invoice is found, its token
 * checked, then QPay's payment check decides. Every callback is logged, forged ones included.
 */
export function registerCallbackRoutes(app: FastifyInstance, { prisma, desk, config, limits, lock }: PaymentsRouteDeps): void {
  // Every address gets a budget of payment notices, taken before the body is read or anything
  // logged: every call of the legacy door (it names no token), and a call of a per-invoice URL that
  // is not QPay's for one of our invoices. QPay's own callbacks (our invoice, its token) never
  // count, so its retries are never refused, however many others that address sent.
  app.addHook('onRequest', async (request, reply) => {
    if (request.routeOptions.url === qpayCallbackLegacy.path && request.method === qpayCallbackLegacy.method) return limits.legacyCallbackByAddress(request, reply);
    if (request.routeOptions.url !== qpayCallbackGet.path) return;
    // An id its route refuses (too long, a NUL) is told so by the route, naming the field; only a
    // well-formed one is looked for.
    const params = qpayCallbackParams.safeParse(request.params);
    if (!params.success || nulPath(params.data) !== null) return;
    const { token } = request.query as { token?: unknown };
    const invoice = await invoiceStore.find(prisma, params.data.invoiceId);
    if (!invoice || !sameToken(invoice.callbackToken, typeof token === 'string' ? token : undefined)) await limits.strayCallbackByAddress(request, reply);
  });

  /**
   * The legacy door's check: one at a time per invoice across replicas (the lock) and at most one
   * per 10 s (the claim on last_checked_at, which every check moves); null when another caller
   * has it or had it just now.
   */
  const rationedCheck = async (invoice: QpayInvoice) => {
    const turn = await lock.withLock(`qpay-check:${invoice.invoiceId}`, config.QPAY_TIMEOUT_MS * 4 + 5_000, async () =>
      (await invoiceStore.claimCheck(prisma, invoice.invoiceId, LEGACY_CHECK_INTERVAL_MS)) ? desk.check(invoice, 'callback') : null,
    );
    return turn.acquired ? turn.result : null;
  };

  const handle = async (callback: Callback) => {
    const started = Date.now();
    const log = (status: 'accepted' | 'ignored' | 'rejected' | 'error', reference: string | null, responseData: unknown, errorMessage: string | null = null) =>
      logStore.add(prisma, { type: 'callback', reference, status, requestData: callback.request, responseData, responseTime: Date.now() - started, errorMessage });

    const invoice = callback.requireToken ? await invoiceStore.find(prisma, callback.id) : await invoiceStore.findByAnyId(prisma, callback.id);
    if (!invoice) {
      await log('rejected', null, null, `Unknown invoice ${callback.id.slice(0, 100)}`);
      throw notFound('Unknown invoice');
    }
    if (callback.requireToken && !sameToken(invoice.callbackToken, callback.token)) {
      await log('rejected', invoice.invoiceId, null, 'Wrong or missing callback token');
      throw forbidden('Invalid callback token');
    }
    if (invoice.status !== 'pending') {
      const reply = { status: 'SUCCESS', message: invoice.status };
      await log('ignored', invoice.invoiceId, reply, `Already ${invoice.status}`);
      return reply;
    }
    try {
      const outcome = callback.requireToken ? await desk.check(invoice, 'callback') : await rationedCheck(invoice);
      if (!outcome) {
        const now = (await invoiceStore.find(prisma, invoice.invoiceId)) ?? invoice;
        const reply = { status: 'SUCCESS', message: now.status === 'pending' ? 'Not paid yet (checked with QPay moments ago)' : now.status };
        await log('ignored', invoice.invoiceId, reply, `QPay is asked about an invoice at most once per ${LEGACY_CHECK_INTERVAL_MS / 1000} s on this path`);
        return reply;
      }
      const reply = { status: 'SUCCESS', message: outcome.invoice.status === 'paid' ? 'paid' : outcome.message };
      await log(outcome.completed ? 'accepted' : 'ignored', invoice.invoiceId, reply, outcome.invoice.flag);
      return reply;
    } catch (error) {
      // A 5xx tells QPay to try again later; the reconciliation will look too.
      await log('error', invoice.invoiceId, null, (error as Error).message);
      // Our own database away is answered by the error handler (503, Retry-After, no driver text).
      throw error instanceof AppError || isTransientError(error) ? error : new AppError(503, 'qpay_failed', (error as Error).message);
    }
  };

  serveRoute(app, qpayCallbackGet, async ({ params, query }) =>
    handle({ id: params.invoiceId, token: query.token, requireToken: true, request: { method: 'GET', invoiceId: params.invoiceId, qpay_payment_id: query.qpay_payment_id ?? null } }),
  );

  serveRoute(app, qpayCallbackPost, async ({ params, query, body }) =>
    handle({ id: params.invoiceId, token: query.token, requireToken: true, request: { method: 'POST', invoiceId: params.invoiceId, body } }),
  );

  serveRoute(app, qpayCallbackLegacy, async ({ body }) => handle({ id: body.invoice_id, token: undefined, requireToken: false, request: { method: 'POST', body } }));
}
