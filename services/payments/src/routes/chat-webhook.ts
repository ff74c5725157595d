import type { FastifyInstance } from 'fastify';
import { serveRoute, unauthorized } from '@bo/platform';
import { chatPaymentWebhook, testChatPaymentWebhook } from '@bo/proto';
import { chatOrder, formatTugrik, sameToken } from '../domain/invoices';
import { invoiceRecord, logStore } from '../store/invoice-store';
import type { PaymentsRouteDeps } from './deps';

export const WEBHOOK_SECRET_HEADER = 'x-webhook-secret';

/**
 * The chat flow's "pay" step: a payment link as a Dynamic Block v2 message. The same chat order
 * reference (custom_fields.invoice_id) answers the same invoice, so a repeated step never makes a
 * second one.
 */
export function registerChatWebhookRoutes(app: FastifyInstance, { prisma, desk, config }: PaymentsRouteDeps): void {
  // Every failed request is logged too, including one its contract refused before the handler ran.
  app.addHook('onError', async (request, reply, error) => {
    if (request.routeOptions.url !== chatPaymentWebhook.path || request.method !== chatPaymentWebhook.method) return;
    await logStore.add(prisma, { type: 'webhook', reference: null, status: 'error', requestData: request.body, responseTime: reply.elapsedTime, errorMessage: error.message });
  });

  serveRoute(app, chatPaymentWebhook, async ({ body, request, reply: response }) => {
    const secret = request.headers[WEBHOOK_SECRET_HEADER];
    if (config.QPAY_WEBHOOK_SECRET && !sameToken(config.QPAY_WEBHOOK_SECRET, typeof secret === 'string' ? secret : undefined)) throw unauthorized(`Missing or wrong ${WEBHOOK_SECRET_HEADER} header`);
    const name = [body.first_name, body.last_name].filter(Boolean).join(' ') || null;
    const { order, description } = chatOrder(body.custom_fields.invoice_code, body.email ?? null);
    const { invoice, created } = await desk.create({
      reference: body.custom_fields.invoice_id ? `chat:${body.user_id}:${body.custom_fields.invoice_id}` : null,
      description,
      amount: body.custom_fields.amount,
      payer: { name, email: body.email ?? null, phone: body.phone ?? null, subscriberId: body.user_id },
      order,
    });
    const paymentUrl = invoiceRecord(invoice, config.PUBLIC_URL).paymentUrl;
    const reply = {
      version: 'v2' as const,
      content: {
        messages: [{
          type: 'text' as const,
          text: `${invoice.description} — ${formatTugrik(invoice.amount)}. Төлөхийн тулд доорх товчийг дарна уу. / Tap the button below to pay.`,
          buttons: [{ type: 'url' as const, caption: 'Төлөх / Pay', url: paymentUrl, webview_size: 'full' as const }],
        }],
      },
    };
    await logStore.add(prisma, { type: 'webhook', reference: invoice.invoiceId, status: created ? 'accepted' : 'ignored', requestData: request.body, responseData: reply, responseTime: response.elapsedTime, errorMessage: created ? null : 'Same chat order: the invoice already made' });
    return reply;
  });

  // Through the service's own HTTP stack, so the payload meets exactly what the chat's would.
  serveRoute(app, testChatPaymentWebhook, async ({ body }) => {
    const response = await app.inject({
      method: 'POST',
      url: chatPaymentWebhook.path,
      headers: { 'content-type': 'application/json', ...(config.QPAY_WEBHOOK_SECRET ? { [WEBHOOK_SECRET_HEADER]: config.QPAY_WEBHOOK_SECRET } : {}) },
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
}
