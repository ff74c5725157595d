import { randomBytes } from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import fastifySession from '@fastify/session';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { PendingSignIn } from '../clients/oidc';
import { isHttps, type GatewayConfig } from '../config';
import { isTrustedPeer } from '../domain/client-address';
import { judgeSession } from '../domain/session-policy';
import type { AccountsStore } from '../store/accounts-store';
import type { PrismaSessionStore } from '../store/session-store';

/** Who a session belongs to once signed in. */
export interface SessionAuth {
  kind: 'admin' | 'user' | 'customer';
  /** users.id for OIDC accounts, `local:<local_admins.id>` for password accounts, `customer:<key id>` for customers. */
  userId: string;
  /** For customers: the account e-mail they signed in with. */
  email: string | null;
  /** For password accounts: the username they signed in with (records name them by it). */
  name?: string;
  isAdmin: boolean;
  /** key: a customer's e-mail and key (ADR 15). */
  method: 'oidc' | 'password' | 'key';
  /** For customers: the key the session is limited to. */
  keyId?: number;
}

declare module 'fastify' {
  interface Session {
    auth?: SessionAuth;
    /** Epoch ms; enforce the idle and absolute timeouts (domain/session-policy). */
    createdAt?: number;
    lastSeenAt?: number;
    /** The OIDC transaction between /api/login and /api/callback; deleted on first use. */
    oidc?: PendingSignIn;
  }
}

export const sessionCookieName = (config: GatewayConfig) => (isHttps(config) ? '__Host-sid' : 'sid');

/**
 * Server-side sessions in PostgreSQL. The cookie is a browser-session cookie; the server decides
 * the lifetime: 30 minutes idle and 12 hours absolute, both checked on every request.
 */
export async function registerSessions(app: FastifyInstance, config: GatewayConfig, store: PrismaSessionStore, accounts: AccountsStore): Promise<void> {
  await app.register(fastifyCookie);
  await app.register(fastifySession, {
    secret: config.SESSION_SECRET,
    cookieName: sessionCookieName(config),
    store,
    saveUninitialized: false,
    rolling: false,
    idGenerator: () => randomBytes(32).toString('base64url'), // 256 bits from the CSPRNG (ASVS 7.2.3)
    cookie: { httpOnly: true, secure: isHttps(config), sameSite: 'lax', path: '/' },
  });

  // TLS ends at a trusted proxy: believe its X-Forwarded-Proto, else @fastify/session would never
  // save a Secure-cookie session on the plain hop (the platform app is built without trustProxy).
  if (isHttps(config)) {
    app.addHook('onRequest', async (request) => {
      const proto = String(request.headers['x-forwarded-proto'] ?? '').split(',').pop()?.trim();
      if (proto === 'https' && !('encrypted' in request.socket) && isTrustedPeer(request.socket.remoteAddress ?? '', config.TRUST_PROXY)) {
        Object.defineProperty(request, 'protocol', { value: 'https' });
      }
    });
  }

  app.addHook('onRequest', async (request) => {
    const session = request.session;
    if (!session?.sessionId) return;
    const verdict = judgeSession(session);
    if (verdict === 'expired') return session.regenerate(); // drops the row; the request goes on anonymous
    if (verdict === 'touch') session.lastSeenAt = Date.now();
    if (!session.auth) return;
    // The account as it is now, not as it was at sign-in: a disabled account loses its session on its
    // next request, and admin rights follow ADMIN_EMAILS (for every route, proxied ones included).
    const current = await currentAuth(session.auth, accounts, config);
    if (!current) {
      request.log.info({ userId: session.auth.userId }, 'session of a disabled account ended');
      return session.regenerate();
    }
    if (current.isAdmin !== session.auth.isAdmin || current.kind !== session.auth.kind) session.auth = current;
  });
}

/** The session's account with today's rights, or null when the account is gone or disabled. */
async function currentAuth(auth: SessionAuth, accounts: AccountsStore, config: GatewayConfig): Promise<SessionAuth | null> {
  // A customer has no account here: streaming-keys judges their key on every customer route.
  if (auth.method === 'key') return auth;
  const state = await accounts.accountState(auth.userId);
  if (!state.active) return null;
  if (auth.method === 'password') return auth; // local accounts are administrators by definition
  const isAdmin = state.email !== null && config.ADMIN_EMAILS.includes(state.email);
  return { ...auth, email: state.email, isAdmin, kind: isAdmin ? 'admin' : 'user' };
}

/** Starts a fresh session (new id, old row destroyed) for a freshly signed-in account (ASVS 7.2.4). */
export async function beginSignedInSession(request: FastifyRequest, auth: SessionAuth): Promise<void> {
  await request.session.regenerate(); // replaces request.session
  const now = Date.now();
  Object.assign(request.session, { auth, createdAt: now, lastSeenAt: now });
}
