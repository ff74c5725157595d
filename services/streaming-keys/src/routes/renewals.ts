import type { FastifyInstance } from 'fastify';
import { conflict, notFound, serveRoute } from '@bo/platform';
import { openRenewal } from '@bo/proto';
import type { StreamingKeysRouteDeps } from './deps';

/** A reminder's renewal link: the customer lands on the payment page of the renewal invoice. */
export function registerRenewalRoutes(app: FastifyInstance, { renewals }: StreamingKeysRouteDeps): void {
  serveRoute(app, openRenewal, async ({ params, reply }) => {
    const target = await renewals.invoiceFor(params.sessionId);
    if (!target) throw notFound('This renewal link is unknown or has expired');
    if ('noPrice' in target) throw conflict(target.noPrice);
    await reply.redirect(`/payment/${target.invoiceId}`, 302);
    return undefined;
  });
}
