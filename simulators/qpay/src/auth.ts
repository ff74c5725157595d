import { randomBytes, randomUUID } from 'node:crypto';
import { qpayError } from './errors';
import type { IssuedToken, QpayEnv, QpayState } from './state';

const base64url = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

/** A JWT-looking opaque token (~360 chars like QPay's); the simulator only looks it up. */
function jwtLike(clientId: string, kind: string, expiresAtMs: number): string {
  const now = Math.floor(Date.now() / 1000);
  const payload = { client_id: clientId, terminal_id: randomUUID(), sub: randomUUID(), jti: randomUUID(), typ: kind, iat: now, exp: Math.floor(expiresAtMs / 1000) };
  return `${base64url({ alg: 'HS256', typ: 'JWT' })}.${base64url(payload)}.${randomBytes(32).toString('base64url')}`;
}

/** The token object; expires_in and refresh_expires_in are ABSOLUTE epoch seconds, as QPay sends them. */
export function issueTokens(state: QpayState, env: QpayEnv, clientId: string) {
  const now = Date.now();
  const issue = (kind: IssuedToken['kind'], ttlSeconds: number): IssuedToken => {
    const expiresAtMs = now + ttlSeconds * 1000;
    const token: IssuedToken = { token: jwtLike(clientId, kind, expiresAtMs), kind, env, clientId, expiresAtMs, revoked: false };
    state.tokens.set(token.token, token);
    return token;
  };
  const access = issue('access', state.options.tokenTtlSeconds);
  const refresh = issue('refresh', state.options.refreshTtlSeconds);
  return {
    token_type: 'bearer',
    refresh_expires_in: Math.floor(refresh.expiresAtMs / 1000),
    refresh_token: refresh.token,
    access_token: access.token,
    expires_in: Math.floor(access.expiresAtMs / 1000),
    scope: 'get_token',
    'not-before-policy': '0',
    session_state: env === 'sandbox' ? 'sandbox' : 'prod_new',
  };
}

/** The client id of valid Basic credentials, or 401 AUTHENTICATION_FAILED (or the CLIENT_NOTFOUND variant). */
export function checkBasic(state: QpayState, header: string | undefined): string {
  const match = /^Basic\s+(.+)$/i.exec(header ?? '');
  const decoded = match ? Buffer.from(match[1], 'base64').toString('utf8') : '';
  const colon = decoded.indexOf(':');
  const [id, secret] = colon < 0 ? ['', ''] : [decoded.slice(0, colon), decoded.slice(colon + 1)];
  const client = state.options.clients.find((c) => c.clientId === id && c.clientSecret === secret);
  if (!client) throw qpayError(401, state.options.badBasicError, 'Authentication failed');
  return client.clientId;
}

/** A live bearer token of this kind and environment, or 401 NO_CREDENDIALS. */
export function checkBearer(state: QpayState, env: QpayEnv, header: string | undefined, kind: IssuedToken['kind']): IssuedToken {
  const match = /^Bearer\s+(\S+)$/i.exec(header ?? '');
  const token = match ? state.tokens.get(match[1]) : undefined;
  if (!token || token.kind !== kind || token.env !== env || token.revoked || Date.now() >= token.expiresAtMs) {
    throw qpayError(401, state.options.noCredentialsError, 'No credentials');
  }
  return token;
}
