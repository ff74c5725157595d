/**
 * The customer portal's rules that need no server: which service a key is for (its suffix), how an
 * expiry is coloured, which cards each service page has. The values mirror proto's code-fetch
 * contract (types only reach the bundle, zod does not); service.test.ts checks they agree.
 */
import type { CodeTypeYield, ParseEmailType, ServiceCode } from '@bo/proto';

/** Document 3 §5: spaces are stripped from the e-mail and the key before sending. */
export const stripSpaces = (text: string) => text.replace(/\s+/g, '');

const SUFFIX = /-(NFX|DPS|AMZ|HLU|MAX)$/i;

/** The service a key is for, by its suffix (-NFX, -DPS, -AMZ, -HLU, -MAX; any case, spaces ignored), else null. */
export function serviceOfKey(key: string): ServiceCode | null {
  const match = SUFFIX.exec(stripSpaces(key));
  return match ? (match[1].toUpperCase() as ServiceCode) : null;
}

/** Document 3 §2: each service's customer page. */
export const servicePagePaths: Record<ServiceCode, string> = { NFX: '/netflix', DPS: '/disney', AMZ: '/prime', HLU: '/hulu', MAX: '/max' };
export const serviceCodes = Object.keys(servicePagePaths) as ServiceCode[];

/** Document 3 §2: Netflix has four cards, the others one one-time-code card each. */
export const serviceCards: Record<ServiceCode, readonly ParseEmailType[]> = {
  NFX: ['netflix-signin', 'netflix-temp', 'netflix-household', 'netflix-tv'],
  DPS: ['disney-otp'],
  AMZ: ['prime-otp'],
  HLU: ['hulu-otp'],
  MAX: ['max-otp'],
};

/** What each fetch yields (proto's codeTypes[codeTypeOfParseType[type]].yields). */
export const cardYields: Record<ParseEmailType, CodeTypeYield> = {
  'netflix-signin': 'code',
  'netflix-temp': 'links',
  'netflix-household': 'links',
  'netflix-tv': 'tv',
  'disney-otp': 'code',
  'prime-otp': 'code',
  'hulu-otp': 'code',
  'max-otp': 'code',
};

/** Document 3 §4/§9: on customer pages a key expiring within 7 days is yellow, an expired one red. */
export const EXPIRY_WARNING_DAYS = 7;
const DAY_MS = 86_400_000;

export type ExpiryTone = 'expired' | 'soon' | 'ok';

export function expiryTone(expiresAt: string, now: Date = new Date()): ExpiryTone {
  const left = new Date(expiresAt).getTime() - now.getTime();
  if (Number.isNaN(left) || left < 0) return 'expired';
  return left <= EXPIRY_WARNING_DAYS * DAY_MS ? 'soon' : 'ok';
}

export const expiryPalette: Record<ExpiryTone, string> = { expired: 'red', soon: 'yellow', ok: 'green' };

/**
 * Where to go after sign-in: the server's redirectUrl when it is a path of this site (never another
 * origin, '//host' included), else the service's own page.
 */
export function safeRedirect(redirectUrl: string, service: ServiceCode): string {
  return /^\/(?![/\\])/.test(redirectUrl) ? redirectUrl : servicePagePaths[service];
}
