import { randomBytes } from 'node:crypto';
import { decodeJwt, errors as joseErrors, jwtVerify } from 'jose';
import { errorInfo, GoogleApiError } from './errors';
import type { ServiceAccount } from './service-account';

export interface Caller {
  email: string;
  canWrite: boolean;
}

const SCOPE = 'https://www.googleapis.com/auth/';
const WRITE_SCOPES = ['spreadsheets', 'drive', 'drive.file', 'cloud-platform'].map((s) => SCOPE + s);
const READ_SCOPES = [...WRITE_SCOPES, ...['spreadsheets.readonly', 'drive.readonly'].map((s) => SCOPE + s)];
/** Google's answer's lifetime: one hour less a second. */
const TOKEN_SECONDS = 3599;

const unauthenticated = (reason: string) =>
  new GoogleApiError(
    401,
    'UNAUTHENTICATED',
    'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.',
    [errorInfo(reason, { method: 'google.apps.sheets.v4.SpreadsheetsService' })],
  );

/** An OAuth token-endpoint failure, in OAuth's own shape (not Google's API error shape). */
export class TokenError extends Error {
  constructor(readonly error: string, readonly description: string) {
    super(description);
  }
}

/**
 * Accepts the two ways a service account proves itself: a self-signed JWT sent as the Bearer
 * (useJWTAccessWithScope) and an access token obtained from POST /token with a signed assertion.
 */
export class Authenticator {
  private readonly issued = new Map<string, { email: string; scopes: string[]; expiresAt: number }>();

  constructor(private readonly accounts: ServiceAccount[]) {}

  /** POST /token with grant_type jwt-bearer. */
  async exchange(grantType: unknown, assertion: unknown): Promise<{ access_token: string; expires_in: number; token_type: 'Bearer' }> {
    if (grantType !== 'urn:ietf:params:oauth:grant-type:jwt-bearer') throw new TokenError('unsupported_grant_type', 'Invalid grant_type: ' + String(grantType));
    if (typeof assertion !== 'string') throw new TokenError('invalid_request', 'Missing required parameter: assertion');
    let claims;
    try {
      claims = await this.verifyJwt(assertion);
    } catch {
      throw new TokenError('invalid_grant', 'Invalid JWT Signature.');
    }
    const scopes = String(claims.scope ?? '').split(' ').filter(Boolean);
    if (scopes.length === 0) throw new TokenError('invalid_scope', 'Invalid OAuth scope or ID token audience provided.');
    const token = `ya29.sim-${randomBytes(24).toString('base64url')}`;
    this.issued.set(token, { email: String(claims.iss), scopes, expiresAt: Date.now() + TOKEN_SECONDS * 1000 });
    return { access_token: token, expires_in: TOKEN_SECONDS, token_type: 'Bearer' };
  }

  /** Who is calling, from the Authorization header; 401 in Google's shape otherwise. */
  async authenticate(authorization: string | undefined): Promise<Caller> {
    const token = /^Bearer (.+)$/i.exec(authorization ?? '')?.[1];
    if (!token) throw unauthenticated('CREDENTIALS_MISSING');
    const issued = this.issued.get(token);
    if (issued) {
      if (issued.expiresAt <= Date.now()) throw unauthenticated('ACCESS_TOKEN_EXPIRED');
      return this.caller(issued.email, issued.scopes);
    }
    try {
      const claims = await this.verifyJwt(token);
      // A self-signed JWT names scopes, or (without useJWTAccessWithScope) the API as its audience.
      const scopes = claims.scope ? String(claims.scope).split(' ') : claims.aud ? [SCOPE + 'spreadsheets'] : [];
      return this.caller(String(claims.iss), scopes);
    } catch (error) {
      if (error instanceof GoogleApiError) throw error;
      throw unauthenticated(error instanceof joseErrors.JWTExpired ? 'ACCESS_TOKEN_EXPIRED' : 'ACCESS_TOKEN_TYPE_UNSUPPORTED');
    }
  }

  private caller(email: string, scopes: string[]): Caller {
    if (!scopes.some((s) => READ_SCOPES.includes(s))) {
      throw new GoogleApiError(403, 'PERMISSION_DENIED', 'Request had insufficient authentication scopes.', [errorInfo('ACCESS_TOKEN_SCOPE_INSUFFICIENT')]);
    }
    return { email, canWrite: scopes.some((s) => WRITE_SCOPES.includes(s)) };
  }

  /** RS256 signed by a known service account's key, with its key id when one is given. */
  private async verifyJwt(jwt: string) {
    const account = this.accounts.find((a) => a.clientEmail === decodeJwt(jwt).iss);
    if (!account) throw new Error('unknown issuer');
    const { payload, protectedHeader } = await jwtVerify(jwt, account.publicKey, { algorithms: ['RS256'], issuer: account.clientEmail, requiredClaims: ['iat', 'exp'] });
    if (protectedHeader.kid && protectedHeader.kid !== account.privateKeyId) throw new Error('unknown key id');
    return payload;
  }
}
