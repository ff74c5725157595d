import { z } from 'zod';
import { defineRoute } from './contract';
import { MONTHS_MAX, MONTHS_MIN, serviceCodeSchema } from '../money';

const category = 'Streaming keys';
const keyIdParams = z.object({ keyId: z.coerce.number().int().positive() });

/** A sold key as notifications needs it for a reminder. */
export const expiringKeySchema = z.object({
  keyId: z.number().int(),
  key: z.string(),
  service: serviceCodeSchema,
  accountEmail: z.string(),
  profileNumber: z.number().int(),
  expiresAt: z.string(),
  customerId: z.string(),
  isOptedOut: z.boolean(),
});
export type ExpiringKey = z.infer<typeof expiringKeySchema>;

/** Everything a key-delivery message says, the account's sign-in read now (ADR 14). */
export const keyDeliverySchema = z.object({
  keyId: z.number().int(),
  key: z.string(),
  service: serviceCodeSchema,
  serviceName: z.string(),
  accountEmail: z.string(),
  /** The shared account's password, decrypted for this message only; null when none is stored. */
  accountPassword: z.string().nullable(),
  profileNumber: z.number().int(),
  expiresAt: z.string(),
  customerId: z.string().nullable(),
  isOptedOut: z.boolean(),
});
export type KeyDelivery = z.infer<typeof keyDeliverySchema>;

export const expiringKeys = defineRoute({
  owner: 'streaming-keys', method: 'GET', path: '/internal/streaming-keys/expiring', access: 'internal', category,
  query: z.object({ days: z.coerce.number().int().min(1).max(30) }),
  reply: z.object({ data: z.array(expiringKeySchema) }),
  summary: 'Active keys held by a chat subscriber that expire within the next `days` days (not yet expired)',
  example: { query: { days: 3 }, reply: { data: [{ keyId: 41, key: 'SK-7Q2M4P9X3K-NFX', service: 'NFX', accountEmail: 'nfx.account1@example.mn', profileNumber: 3, expiresAt: '2026-11-25T08:00:00.000Z', customerId: '1234567', isOptedOut: false }] } },
});

export const keyDelivery = defineRoute({
  owner: 'streaming-keys', method: 'GET', path: '/internal/streaming-keys/keys/:keyId/delivery', access: 'internal', category,
  params: keyIdParams,
  reply: keyDeliverySchema,
  summary: "A key with its account's current sign-in details, for the delivery message",
  example: {
    params: { keyId: 41 },
    reply: { keyId: 41, key: 'SK-7Q2M4P9X3K-NFX', service: 'NFX', serviceName: 'Netflix', accountEmail: 'nfx.account1@example.mn', accountPassword: 'Shared-Pass-2026', profileNumber: 3, expiresAt: '2026-12-23T08:00:00.000Z', customerId: '1234567', isOptedOut: false },
  },
});

export const createRenewalSession = defineRoute({
  owner: 'streaming-keys', method: 'POST', path: '/internal/streaming-keys/renewals', access: 'internal', category,
  body: z.object({ keyId: z.number().int().positive(), months: z.number().int().min(MONTHS_MIN).max(MONTHS_MAX).default(1) }).strict(),
  reply: z.object({ sessionId: z.string(), keyId: z.number().int(), months: z.number().int(), amount: z.number().int().nullable(), path: z.string(), expiresAt: z.string() }),
  summary: 'A renewal session for a key: its link (path under the public address) makes the renewal invoice when opened',
  example: { body: { keyId: 41, months: 1 }, reply: { sessionId: 'rs_4f9c2a7d1e8b3c6a', keyId: 41, months: 1, amount: 35000, path: '/api/streaming/renew/rs_4f9c2a7d1e8b3c6a', expiresAt: '2026-11-30T08:00:00.000Z' } },
});

/** The internal routes other services call; the admin and public routes follow below. */
export const streamingKeysInternalRoutes = [expiringKeys, keyDelivery, createRenewalSession];

export const streamingKeysRoutes = [...streamingKeysInternalRoutes];
