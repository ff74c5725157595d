import type { FastifyInstance } from 'fastify';
import { badRequest, notFound, serveRoute } from '@bo/platform';
import {
  availableProfiles, createKeys, deleteKey, emailsWithSlots, expiringSoonKeys, extendKey, generateKeyQr as generateKeyQrRoute, keyStats, listKeys, recentKeys,
  slotStats, streamingServiceOf, streamingServices, updateCustomerId, type ServiceCode,
} from '@bo/proto';
import { daysFromNow, expiringSoonEnd, extendedKeyExpiry, newKeyExpiry } from '../domain/keys';
import { generateKeyQr } from '../operations/qr-codes';
import { moveExpiry } from '../operations/renewals';
import { keyStore, keyView } from '../store/key-store';
import type { StreamingKeysRouteDeps } from './deps';

/** The create form's required fields and the messages of document 3 §5 for each one left empty. */
function missingFields(body: { service?: string; email?: string; months?: number; expiresAt?: string }) {
  const missing = [];
  if (body.service === undefined) missing.push({ field: 'service', message: 'Service is required' });
  if (body.email === undefined) missing.push({ field: 'email', message: 'Invalid email address' });
  if (body.months === undefined && body.expiresAt === undefined) missing.push({ field: 'expiresAt', message: 'Expiry date is required' });
  return missing;
}

/** The keys of the /streaming-keys page: counts, lists, the create dialog and each key card's actions. */
export function registerKeyRoutes(app: FastifyInstance, { prisma, outbox, pool }: StreamingKeysRouteDeps): void {
  serveRoute(app, keyStats, async () => {
    const now = new Date();
    return keyStore.stats(prisma, now, expiringSoonEnd(now));
  });

  serveRoute(app, slotStats, async () => {
    const slotsOf = await keyStore.slotCounts(prisma);
    const services = Object.fromEntries(streamingServices.map((service) => [service.code, { serviceName: service.name, ...slotsOf(service.code) }]));
    return { success: true, data: { services: services as Record<ServiceCode, { serviceName: string; occupiedSlots: number; totalSlots: number }> } };
  });

  serveRoute(app, listKeys, async ({ query }) => ({ success: true, data: (await keyStore.list(prisma, query)).map((key) => keyView(key)) }));

  serveRoute(app, expiringSoonKeys, async ({ query }) => {
    const now = new Date();
    return { success: true, data: (await keyStore.expiringBetween(prisma, now, daysFromNow(query.days, now))).map((key) => keyView(key, now)) };
  });

  serveRoute(app, recentKeys, async ({ query }) => ({ success: true, data: (await keyStore.recent(prisma, query.limit)).map((key) => keyView(key)) }));

  serveRoute(app, emailsWithSlots, async ({ query }) => ({ success: true, data: await pool.emailsWithSlots(query.service) }));

  serveRoute(app, availableProfiles, async ({ params }) => ({ success: true, data: await pool.availableProfiles(params.email, params.service) }));

  serveRoute(app, createKeys, async ({ body }) => {
    const missing = missingFields(body);
    if (missing.length > 0) throw badRequest('Please fill in all required fields', missing);
    const service = body.service!;
    const expiry = newKeyExpiry(body);
    if ('error' in expiry) throw badRequest(expiry.error, [{ field: 'expiresAt', message: expiry.error }]);
    const profiles = body.profiles ?? 1;
    const { maxProfiles, name } = streamingServiceOf(service);
    if (profiles > maxProfiles) throw badRequest(`Profiles must be at most ${maxProfiles} for ${name}`, [{ field: 'profiles', message: `Profiles must be at most ${maxProfiles}` }]);
    const keys = await pool.create({ service, email: body.email!, expiresAt: expiry.expiresAt, profiles, password: body.password });
    return { success: true, data: { keys: keys.map((key) => keyView(key)) } };
  });

  serveRoute(app, extendKey, async ({ body }) => {
    const result = await outbox.commit(async (tx, emit) => {
      const key = await keyStore.lockKey(tx, body.keyId);
      if (!key) return null;
      const expiry = extendedKeyExpiry(key.expiresAt, body);
      if ('error' in expiry) return expiry;
      const moved = await moveExpiry(tx, emit, key, expiry.expiresAt, { invoiceId: null, months: expiry.months, amount: null });
      return { moved, previousExpiresAt: key.expiresAt.toISOString() };
    });
    if (!result) throw notFound('Key not found');
    if ('error' in result) throw badRequest(result.error, [{ field: body.months === undefined ? 'expiresAt' : 'months', message: result.error }]);
    return { success: true, data: keyView(result.moved), previousExpiresAt: result.previousExpiresAt };
  });

  serveRoute(app, deleteKey, async ({ params }) => {
    if (!(await keyStore.delete(prisma, params.id))) throw notFound('Key not found');
    return { success: true };
  });

  serveRoute(app, updateCustomerId, async ({ params, body }) => {
    const key = await keyStore.setCustomerId(prisma, params.id, body.customerId);
    if (!key) throw notFound('Key not found');
    return { success: true, data: keyView(key) };
  });

  serveRoute(app, generateKeyQrRoute, async ({ params }) => {
    const key = await keyStore.find(prisma, params.id);
    if (!key) throw notFound('Key not found');
    const qr = await generateKeyQr(prisma, key);
    return { success: true, data: { keyId: key.id, qrCodeData: qr.qrCodeData, qrCodeUrl: qr.qrCodeUrl, generatedAt: qr.generatedAt.toISOString() } };
  });
}
