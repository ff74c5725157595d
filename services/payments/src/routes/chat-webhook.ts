import type { FastifyInstance } from 'fastify';
import { AppError, serveRoute, unauthorized } from '@bo/platform';
import { CHAT_WEBHOOK_SECRET_HEADER, chatPaymentWebhook, checkChatWebhookSecret, createChatOrder, dynamicBlock, formatTugrik, testChatPaymentWebhook } from '@bo/proto';
import { fingerprintOf } from '../domain/invoices';
import { priceChatOrder, priceChatProduct } from '../operations/chat-checkout';
import { invoiceRecord, logStore } from '../store/invoice-store';
import type { PaymentsRouteDeps } from './deps';


const isWebhook = (request: { method: string; routeOptions: { url?: string } }) => request.routeOptions.url === chatPaymentWebhook.path && request.method === chatPaymentWebhook.method;

/**
 * The chat flow's "pay" step: a payment link as a Dynamic Block v2 message, at the listed price
 * only (issue 18 §1). The same chat order reference (user_id + custom_fields.invoice_id) with the
 * same body answers the same invoice, so a repeated step never makes a second one.
 */
export function registerChatWebhookRoutes(app: FastifyInstance, { prisma, desk, config, webhookSecret, limits, prices }: PaymentsRouteDeps): void {
  // Every failed request is logged too, including one its contract refused before the handler ran;
  // a rate-limited one is not (a flood must cost nothing, a log row included).
  app.addHook('onError', async (request, reply, error) => {
    if (!isWebhook(request) || (error instanceof AppError && error.status === 429)) return;
    await logStore.add(prisma, { type: 'webhook', reference: null, status: 'error', requestData: request.body, responseTime: reply.elapsedTime, errorMessage: error.message });
  });

  // Before the body is even read: the address's budget, then the secret (compared in constant time).
  app.addHook('onRequest', async (request, reply) => {
    if (!isWebhook(request)) return;
    await limits.webhookByAddress(request, reply);
    const given = request.headers[CHAT_WEBHOOK_SECRET_HEADER];
    if (!(await webhookSecret.matches(typeof given === 'string' ? given : undefined))) throw unauthorized(`Missing or wrong ${CHAT_WEBHOOK_SECRET_HEADER} header`);
  });

  serveRoute(app, chatPaymentWebhook, async ({ body, request, reply: response }) => {
    await limits.webhookBySubscriber(body.user_id, response);
    const name = [body.first_name, body.last_name].filter(Boolean).join(' ') || null;
    const email = body.email ?? null;
    const reference = body.custom_fields.invoice_id ? `chat:${body.user_id}:${body.custom_fields.invoice_id}` : null;
    const fingerprint = fingerprintOf(body);
    // A repeat of the request that made the invoice is answered without asking for a price again.
    const made = reference ? await desk.madeFor(reference, fingerprint) : null;
    const { invoice, created } = made
      ? { invoice: made, created: false }
      : await desk.create({
          ...(await priceChatOrder(prices, { invoiceCode: body.custom_fields.invoice_code, amount: body.custom_fields.amount, email })),
          reference,
          fingerprint,
          payer: { name, email, phone: body.phone ?? null, subscriberId: body.user_id },
        });
    const paymentUrl = invoiceRecord(invoice, config.PUBLIC_URL).paymentUrl;
    const reply = dynamicBlock([{
      text: `${invoice.description} — ${formatTugrik(invoice.amount)}. Төлөхийн тулд доорх товчийг дарна уу. / Tap the button below to pay.`,
      buttons: [{ type: 'url', caption: 'Төлөх / Pay', url: paymentUrl, webview_size: 'full' }],
    }]);
    await logStore.add(prisma, { type: 'webhook', reference: invoice.invoiceId, status: created ? 'accepted' : 'ignored', requestData: request.body, responseData: reply, responseTime: response.elapsedTime, errorMessage: created ? null : 'Same chat order: the invoice already made' });
    return reply;
  });

  // Through the service's own HTTP stack with the current secret, so the payload meets exactly what the chat's would.
  serveRoute(app, testChatPaymentWebhook, async ({ body, request }) => {
    const forwardedFor = request.headers['x-forwarded-for'];
    const response = await app.inject({
      method: 'POST',
      url: chatPaymentWebhook.path,
      headers: {
        'content-type': 'application/json',
        [CHAT_WEBHOOK_SECRET_HEADER]: await webhookSecret.current(),
        // Counted against the admin's own address, not against every request without one.
        ...(typeof forwardedFor === 'string' ? { 'x-forwarded-for': forwardedFor } : {}),
      },
      payload: JSON.stringify(body ?? null),
    });
    const parsed = (() => {
      try {
        return response.json() as unknown;
      } catch {
        return response.body;
      }
    })();
    const error = response.statusCode >= 300 ? String((parsed as { error?: unknown } | null)?.error ?? `HTTP ${response.statusCode}`) : null;
    return { success: error === null, error, data: { statusCode: response.statusCode, response: parsed } };
  });

  // A purchase ai-chat's chat started: priced here from the lists, never by the caller; once per purchase.
  serveRoute(app, createChatOrder, async ({ body }) => {
    const { invoice, created } = await desk.create({ ...(await priceChatProduct(prices, body.product, body.payer.email)), reference: body.reference, payer: body.payer });
    const record = invoiceRecord(invoice, config.PUBLIC_URL);
    return { invoiceId: record.invoiceId, description: record.description, amount: record.amount, paymentUrl: record.paymentUrl, expiresAt: record.expiresAt, created };
  });

  // ai-chat's webhook is the same chat flow's: it asks here rather than holding a copy of the secret.
  serveRoute(app, checkChatWebhookSecret, async ({ body }) => ({ matches: await webhookSecret.matches(body.secret) }));
}
