import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { notFound, serveRoute, unauthorized } from '@bo/platform';
import { customerGenerateQr, customerKeys, customerParseEmail, customerSignIn, servicePagePaths, streamingServiceOf, type ServiceCode } from '@bo/proto';
import { customerKeyView, sessionKeys } from '../operations/customer-keys';
import { generateKeyQr } from '../operations/qr-codes';
import { keyStore } from '../store/key-store';
import type { StreamingKeysRouteDeps } from './deps';

const digest = (text: string) => createHash('sha256').update(text).digest();
/** Compared against when the key does not exist, so an unknown key costs what a wrong e-mail costs. */
const NO_ACCOUNT = digest('\0no account');

/** The customer portal's routes (ADR 15): sign-in check for the gateway, the session's keys, their QR codes, the code fetch. */
export function registerCustomerRoutes(app: FastifyInstance, { prisma, codeFetch }: StreamingKeysRouteDeps): void {
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
  serveRoute(app, customerGenerateQr, async ({ identity, params }) => {
    const key = (await sessionKeys(prisma, identity)).find((candidate) => candidate.id === params.id);
    if (!key) throw notFound('Key not found');
    const qr = await generateKeyQr(prisma, key);
    return { success: true, data: { keyId: key.id, qrCodeData: qr.qrCodeData, generatedAt: qr.generatedAt.toISOString() } };
  });

  serveRoute(app, customerParseEmail, async ({ identity, body }) => codeFetch.fetch(identity, body));
}
