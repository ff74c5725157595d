import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { notFound, serveRoute, unauthorized } from '@bo/platform';
import type { FastifyReply } from 'fastify';
import { customerGenerateQr, customerKeys, customerParseEmail, customerSignIn, servicePagePaths, streamingServiceOf, type ServiceCode } from '@bo/proto';
import { customerKeyView, sessionKeys } from '../operations/customer-keys';
import { retryAtOf } from '../operations/fetch-limits';
import { customerKeyQr } from '../operations/qr-codes';
import { keyStore } from '../store/key-store';
import type { StreamingKeysRouteDeps } from './deps';

const digest = (text: string) => createHash('sha256').update(text).digest();
/** Compared against when the key does not exist, so an unknown key costs what a wrong e-mail costs. */
const NO_ACCOUNT = digest('\0no account');

/**
 * The customer portal's routes (ADR 15): sign-in check for the gateway, the session's keys, their
 * QR codes, the code fetch. A refusal for clicking too often says when to try again.
 */
/** A refusal that says when to try again carries it as Retry-After too (seconds). */
async function withRetryAfter<T>(reply: FastifyReply, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const at = retryAtOf(error);
    if (at) reply.header('retry-after', String(Math.max(1, Math.ceil((at.getTime() - Date.now()) / 1000))));
    throw error;
  }
}

export function registerCustomerRoutes(app: FastifyInstance, { prisma, codeFetch, fetchLimits }: StreamingKeysRouteDeps): void {
  // The key and the account e-mail it is a profile of; an expired or deactivated key signs in too (its page shows the expiry).
  serveRoute(app, customerSignIn, async ({ body }) => {
    const key = await keyStore.findByText(prisma, body.key);
    const matches = timingSafeEqual(key ? digest(key.email.toLowerCase()) : NO_ACCOUNT, digest(body.email));
    if (!key || !matches) throw unauthorized('Invalid email or key');
    const service = key.service as ServiceCode;
    return { keyId: key.id, email: key.email, service, serviceName: streamingServiceOf(service).name, redirectUrl: servicePagePaths[service] };
  });

  serveRoute(app, customerKeys, async ({ identity }) => {
    const now = new Date();
    return { success: true, keys: (await sessionKeys(prisma, identity)).map((key) => customerKeyView(key, now)) };
  });

  // Another customer's key and a key that does not exist get the same answer.
  serveRoute(app, customerGenerateQr, async ({ identity, params, reply }) => {
    const key = (await sessionKeys(prisma, identity)).find((candidate) => candidate.id === params.id);
    if (!key) throw notFound('Key not found');
    const qr = await withRetryAfter(reply, () => customerKeyQr(prisma, fetchLimits, key));
    return { success: true, data: { keyId: key.id, qrCodeData: qr.qrCodeData, generatedAt: qr.generatedAt.toISOString() } };
  });

  serveRoute(app, customerParseEmail, async ({ identity, body, reply }) => withRetryAfter(reply, () => codeFetch.fetch(identity, body)));
}
