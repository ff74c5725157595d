import type { FastifyInstance } from 'fastify';
import { callerAddress, serveRoute, unauthorized } from '@bo/platform';
import { TooManyGuesses } from '../clients/chat-secret';
import { CHAT_WEBHOOK_SECRET_HEADER, chatBuyLink, chatWebhook } from '@bo/proto';
import type { AiChatRouteDeps } from './deps';

const isChatWebhook = (request: { method: string; routeOptions: { url?: string } }) => request.routeOptions.url === chatWebhook.path && request.method === chatWebhook.method;

/**
 * POST /api/manychat/webhook: the chat flow's secret header, or an administrator's session (the
 * dashboard's simulator); anyone else gets 401, and an address that keeps guessing 429
 * (SECRET_GUESSES_PER_ADDRESS). Checked once the caller's identity is known (the platform's
 * preHandler), before the body is validated or anything is stored.
 */
export function registerChatWebhookRoutes(app: FastifyInstance, { frontDoor, chatSecret, purchases }: AiChatRouteDeps): void {
  app.addHook('preHandler', async (request, reply) => {
    if (!isChatWebhook(request) || request.identity?.isAdmin) return;
    const given = request.headers[CHAT_WEBHOOK_SECRET_HEADER];
    let matches: boolean;
    try {
      matches = await chatSecret.matches(typeof given === 'string' ? given : undefined, callerAddress(request));
    } catch (error) {
      if (error instanceof TooManyGuesses) reply.header('retry-after', String(error.retryAfterSeconds));
      throw error;
    }
    if (!matches) throw unauthorized(`Missing or wrong ${CHAT_WEBHOOK_SECRET_HEADER} header`);
  });

  serveRoute(app, chatWebhook, async ({ body }) => (await frontDoor.answer({ userId: body.user_id, text: body.text, firstName: body.first_name ?? null })).reply);

  // A Buy button opened in the chat's browser: the purchase's invoice, then its payment page.
  serveRoute(app, chatBuyLink, async ({ params, reply }) => {
    const invoice = await purchases.open(params.token);
    await reply.redirect(invoice.paymentUrl);
    return undefined;
  });
}
