import { Counter, serveRoute, unauthorized, type ServiceApp } from '@bo/platform';
import { passwordLogin, passwordLogout } from '@bo/proto';
import { randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import type { FastifyInstance } from 'fastify';
import type { GatewayConfig } from '../config';
import { requestClientAddress } from '../domain/client-address';
import type { LoginLimiter } from '../domain/login-limiter';
import { beginSignedInSession } from '../plugins/sessions';
import type { AccountsStore } from '../store/accounts-store';
import { endSession, LOCAL_ADMIN_PREFIX } from './session';

// Verified when the account does not exist, so a wrong username costs as long as a wrong password.
let dummyHash: Promise<string> | undefined;
const unknownAccountHash = () => (dummyHash ??= hash(randomBytes(16).toString('hex')));

/** Password sign-in for local admin accounts (created with src/cli/create-admin.ts). */
export function registerPasswordLoginRoutes(app: FastifyInstance, deps: { config: GatewayConfig; accounts: AccountsStore; limiter: LoginLimiter }): void {
  // Operators see guessing on /metrics; every argon2 verification is one count.
  const checks = new Counter({
    name: 'gateway_password_checks_total',
    help: 'Password verifications made by admin password sign-in, by outcome',
    labelNames: ['outcome'],
    registers: [(app as ServiceApp).metrics.registry],
  });

  serveRoute(app, passwordLogin, async ({ body: { username, password }, request }) => {
    const ip = requestClientAddress(request, deps.config.TRUST_PROXY);
    const attempt = await deps.limiter.begin('admin', ip, username);
    const admin = await deps.accounts.findLocalAdmin(username);
    const valid = await verify(admin?.passwordHash ?? (await unknownAccountHash()), password).catch(() => false);
    const accepted = admin !== null && valid && admin.disabledAt === null;
    checks.inc({ outcome: accepted ? 'accepted' : 'refused' });
    if (!accepted) {
      request.log.info({ username, ip }, 'admin password sign-in refused');
      throw unauthorized('Invalid username or password');
    }
    await attempt.succeeded();
    request.log.info({ username }, 'admin sign-in (password)');
    await beginSignedInSession(request, { kind: 'admin', userId: `${LOCAL_ADMIN_PREFIX}${admin.id}`, email: null, name: admin.username, isAdmin: true, method: 'password' });
    return { success: true, username: admin.username };
  });

  serveRoute(app, passwordLogout, async ({ request, reply }) => {
    await endSession(request, reply, deps.config);
    return { success: true };
  });
}
