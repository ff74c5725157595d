import { z } from 'zod';
import { defineRoute, successReply } from './contract';
import { idField, idParam } from './fields';
import { EMAIL_MAX, KEY_MAX, serviceCodeSchema, serviceCodes } from '../money';
import { parseEmailTypeSchema, parseResultSchema } from '../code-fetch';
import { keyDisplayStatuses } from './streaming-keys-routes';

/**
 * The customer portal (document 3 §2, §7 "Auth and customer"; ADR 15). The gateway owns the
 * customer session (sign-in, session, logout); streaming-keys answers for the session's keys,
 * their QR codes and the code fetch, and checks every key id against the session.
 */
const category = 'Customer';

/** Document 3 §5: spaces are stripped from both; both are required. */
const stripped = (v: unknown) => (typeof v === 'string' ? v.replace(/\s+/g, '') : v);
const REQUIRED = 'Please enter your email and key';
const serviceSuffix = new RegExp(`-(${serviceCodes.join('|')})$`);

export const customerCredentialsSchema = z.object({
  email: z.preprocess(stripped, z.string({ error: REQUIRED }).min(1, REQUIRED).max(EMAIL_MAX).toLowerCase()),
  key: z.preprocess(
    stripped,
    z.string({ error: REQUIRED }).min(1, REQUIRED).max(KEY_MAX, 'Invalid email or key').toUpperCase()
      .refine((key) => serviceSuffix.test(key), 'The key must end with its service code: -NFX, -DPS, -AMZ, -HLU or -MAX'),
  ),
});

/** A key as its customer sees it: no account password, no other customer's data. */
export const customerKeySchema = z.object({
  id: z.number().int(),
  key: z.string(),
  service: serviceCodeSchema,
  serviceName: z.string(),
  /** The shared account e-mail the key is a profile of. */
  email: z.string(),
  profileNumber: z.number().int(),
  expiresAt: z.string(),
  status: z.enum(keyDisplayStatuses),
  /** The customer page of the key's service, e.g. /netflix. */
  servicePath: z.string(),
});
export type CustomerKey = z.infer<typeof customerKeySchema>;

export const customerLoginDirect = defineRoute({
  owner: 'gateway', method: 'POST', path: '/api/customer/login-direct', access: 'public', category,
  body: customerCredentialsSchema,
  reply: successReply.extend({ serviceName: z.string(), service: serviceCodeSchema, redirectUrl: z.string(), keyId: z.number().int() }),
  summary: "Customer sign-in with the account e-mail and a key; starts a customer session limited to that key and answers its service page",
  example: {
    body: { email: 'nfx.account1@example.mn', key: 'SK-7Q2M4P9X3K-NFX' },
    reply: { success: true, serviceName: 'Netflix', service: 'NFX', redirectUrl: '/netflix', keyId: 41 },
  },
});

export const customerSession = defineRoute({
  owner: 'gateway', method: 'GET', path: '/api/customer/session', access: 'public', category,
  reply: z.object({ authenticated: z.boolean(), email: z.string().nullable(), keyId: z.number().int().nullable() }),
  summary: 'Whether a customer is signed in, with which e-mail, limited to which key',
  example: { reply: { authenticated: true, email: 'nfx.account1@example.mn', keyId: 41 } },
});

export const customerLogout = defineRoute({
  owner: 'gateway', method: 'POST', path: '/api/customer/logout', access: 'public', category,
  reply: successReply,
  summary: 'End the customer session',
  example: { reply: { success: true } },
});

export const customerKeys = defineRoute({
  owner: 'streaming-keys', method: 'GET', path: '/api/customer/keys', access: 'customer', category,
  reply: z.object({ success: z.boolean(), keys: z.array(customerKeySchema) }),
  summary: "The session's keys: the one it signed in with, or every key of the customer when the session has no key id",
  example: {
    reply: { success: true, keys: [{ id: 41, key: 'SK-7Q2M4P9X3K-NFX', service: 'NFX', serviceName: 'Netflix', email: 'nfx.account1@example.mn', profileNumber: 3, expiresAt: '2026-12-23T08:00:00.000Z', status: 'Active', servicePath: '/netflix' }] },
  },
});

export const customerGenerateQr = defineRoute({
  owner: 'streaming-keys', method: 'POST', path: '/api/customer/generate-qr/:id', access: 'customer', category,
  params: z.object({ id: idParam }),
  reply: z.object({ success: z.boolean(), data: z.object({ keyId: z.number().int(), qrCodeData: z.string(), generatedAt: z.string() }) }),
  summary: "A QR code (PNG data: URL) of one of the session's keys; any other id is 404",
  example: { params: { id: 41 }, reply: { success: true, data: { keyId: 41, qrCodeData: 'data:image/png;base64,iVBORw0KGgo=', generatedAt: '2026-11-23T08:00:00.000Z' } } },
});

/** Document 3 §7: a code string, a list of links, or for netflix-tv the approval and denial lists; null when nothing was found. */
export const parseEmailDataSchema = z.union([z.string(), z.array(z.string()), z.object({ approval: z.array(z.string()), denial: z.array(z.string()) }), z.null()]);

export const customerParseEmail = defineRoute({
  owner: 'streaming-keys', method: 'POST', path: '/api/customer/parse-email', access: 'customer', category,
  body: z.object({
    type: parseEmailTypeSchema,
    /** Which of the session's keys; the session's own key (or its only key of that service) when absent. */
    keyId: idField().optional(),
  }),
  reply: z.object({ success: z.boolean(), data: parseEmailDataSchema, result: parseResultSchema }),
  summary: "Fetch the newest sign-in code or link the key's service mailed to its shared account (never a password reset or security mail)",
  example: {
    body: { type: 'netflix-signin' },
    reply: {
      success: true,
      data: '4821',
      result: { found: true, reason: 'Sign-in code found', message_mn: 'Нэвтрэх код олдлоо', code: '4821', links: [], buttons: [], outcome: 'found', approvalLinks: [], denialLinks: [], blockedType: null, source: 'expressions' },
    },
  },
});

export const customerSignIn = defineRoute({
  owner: 'streaming-keys', method: 'POST', path: '/internal/customer/sign-in', access: 'internal', callers: ['gateway'], category,
  body: customerCredentialsSchema,
  reply: z.object({ keyId: z.number().int(), email: z.string(), service: serviceCodeSchema, serviceName: z.string(), redirectUrl: z.string() }),
  summary: "Checks a customer's e-mail and key (401 'Invalid email or key' when they do not belong together)",
  example: {
    body: { email: 'nfx.account1@example.mn', key: 'SK-7Q2M4P9X3K-NFX' },
    reply: { keyId: 41, email: 'nfx.account1@example.mn', service: 'NFX', serviceName: 'Netflix', redirectUrl: '/netflix' },
  },
});

export const customerGatewayRoutes = [customerLoginDirect, customerSession, customerLogout];
export const customerStreamingKeysRoutes = [customerKeys, customerGenerateQr, customerParseEmail, customerSignIn];
