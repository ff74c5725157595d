import type { FastifyInstance } from 'fastify';
import { notFound, serveRoute } from '@bo/platform';
import { createRenewalSession, expiringKeys, keyDelivery, listedStreamingPrice, streamingServiceOf, type ServiceCode } from '@bo/proto';
import { daysFromNow } from '../domain/keys';
import { keyStore } from '../store/key-store';
import { pricingStore } from '../store/pricing-store';
import type { StreamingKeysRouteDeps } from './deps';

/** What other services ask of streaming-keys (ADR 14): keys to remind, a key's delivery details, a renewal link (notifications); a listed price (payments' chat webhook). */
export function registerInternalRoutes(app: FastifyInstance, { prisma, pool, renewals }: StreamingKeysRouteDeps): void {
  serveRoute(app, expiringKeys, async ({ query }) => {
    const now = new Date();
    const keys = await keyStore.expiringBetween(prisma, now, daysFromNow(query.days, now), true);
    return {
      data: keys.map((key) => ({
        keyId: key.id, key: key.key, service: key.service as ServiceCode, accountEmail: key.email, profileNumber: key.profileNumber,
        expiresAt: key.expiresAt.toISOString(), customerId: key.customerId!, isOptedOut: key.isOptedOut,
      })),
    };
  });

  serveRoute(app, keyDelivery, async ({ params }) => {
    const key = await keyStore.find(prisma, params.keyId);
    if (!key) throw notFound('Key not found');
    const service = key.service as ServiceCode;
    return {
      keyId: key.id, key: key.key, service, serviceName: streamingServiceOf(service).name, accountEmail: key.email,
      // Read and opened now, so a password changed after the sale reaches this message.
      accountPassword: await pool.passwordOf(key.email, service),
      profileNumber: key.profileNumber, expiresAt: key.expiresAt.toISOString(), customerId: key.customerId, isOptedOut: key.isOptedOut,
    };
  });

  serveRoute(app, createRenewalSession, async ({ body }) => renewals.start(body.keyId, body.months));

  serveRoute(app, listedStreamingPrice, async ({ params }) => {
    const name = `${streamingServiceOf(params.service).name} ${params.months} сар`;
    const price = await pricingStore.priceOf(prisma, params.service, params.months);
    if (price === null) throw notFound(`${name} has no listed price`);
    return { service: params.service, months: params.months, name, price };
  });
}
