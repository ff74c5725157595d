import { AppError, Counter, serveRoute, ServiceCallError, ServiceClient, serviceUnavailable, unauthorized, type IdentitySigner, type ServiceApp } from '@bo/platform';
import { customerLoginDirect, customerLogout, customerSession, customerSignIn } from '@bo/proto';
import type { FastifyInstance } from 'fastify';
import type { GatewayConfig } from '../config';
import { requestClientAddress } from '../domain/client-address';
import type { LoginLimiter } from '../domain/login-limiter';
import { beginSignedInSession } from '../plugins/sessions';
import { serviceUrl } from '../routing-table';
import { endSession } from './session';

const INVALID = 'Invalid email or key';

/**
 * Customer sign-in with the account e-mail and a key (ADR 15). streaming-keys says whether they
 * belong together; the gateway counts failures (the same limiter as admin sign-in, its own scope)
 * and starts a fresh session limited to that key.
 */
export function registerCustomerLoginRoutes(app: FastifyInstance, deps: { config: GatewayConfig; limiter: LoginLimiter; signer: IdentitySigner }): void {
  const streamingKeys = new ServiceClient({ baseUrl: serviceUrl(deps.config, 'streaming-keys'), signer: deps.signer, timeoutMs: 5_000 });
  // Operators see key guessing on /metrics.
  const checks = new Counter({
    name: 'gateway_customer_sign_ins_total',
    help: 'Customer sign-ins with an e-mail and a key, by outcome',
    labelNames: ['outcome'],
    registers: [(app as ServiceApp).metrics.registry],
  });

  serveRoute(app, customerLoginDirect, async ({ body: { email, key }, request }) => {
    const ip = requestClientAddress(request, deps.config.TRUST_PROXY);
    const attempt = await deps.limiter.begin('customer', ip, email);
    const signedIn = await streamingKeys.call(customerSignIn, { body: { email, key } }).catch((error: unknown) => {
      if (error instanceof ServiceCallError && error.status === 401) return null;
      request.log.warn({ err: error }, 'customer sign-in: streaming-keys did not answer');
      // A failure of ours is not the customer's guess: it must not stay counted against them.
      return attempt.abandoned().then(() => {
        throw error instanceof AppError && error.status < 500 ? error : serviceUnavailable('Sign-in is unavailable right now. Please try again in a minute.');
      });
    });
    if (!signedIn) {
      checks.inc({ outcome: 'refused' });
      request.log.info({ email, ip }, 'customer sign-in refused');
      throw unauthorized(INVALID);
    }
    await attempt.succeeded();
    checks.inc({ outcome: 'accepted' });
    request.log.info({ email, keyId: signedIn.keyId }, 'customer sign-in');
    await beginSignedInSession(request, { kind: 'customer', userId: `customer:${signedIn.keyId}`, email: signedIn.email, isAdmin: false, method: 'key', keyId: signedIn.keyId });
    return { success: true, serviceName: signedIn.serviceName, service: signedIn.service, redirectUrl: signedIn.redirectUrl, keyId: signedIn.keyId };
  });

  serveRoute(app, customerSession, async ({ request }) => {
    const auth = request.session?.auth;
    if (auth?.kind !== 'customer') return { authenticated: false, email: null, keyId: null };
    return { authenticated: true, email: auth.email, keyId: auth.keyId ?? null };
  });

  serveRoute(app, customerLogout, async ({ request, reply }) => {
    await endSession(request, reply, deps.config);
    return { success: true };
  });
}
