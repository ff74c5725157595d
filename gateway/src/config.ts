import { z } from 'zod';
import { loadConfig, optionalString, optionalUrl, secretSetting, serviceEnvSchema } from '@bo/platform';
import { domainServiceNames, urlVariableOf } from '@bo/proto';
import { parseTrustProxy } from './domain/client-address';

const commaList = z.preprocess(
  (v) => (typeof v === 'string' ? v.split(',').map((s) => s.trim().toLowerCase()).filter(Boolean) : []),
  z.array(z.string()),
);

export const gatewayEnvSchema = serviceEnvSchema.extend({
  PORT: z.coerce.number().int().min(0).max(65535).default(5000),
  /** The origin browsers use (https in production): cookie flags, OIDC redirect URI, Origin checks. */
  PUBLIC_URL: z.url(),
  /** Signs the session cookie: 32 or more random characters, never an example's placeholder. */
  SESSION_SECRET: secretSetting,
  /** Proxies in front of the gateway: a hop count ("1") or a comma list of CIDRs. Never "true". */
  TRUST_PROXY: z.string().default('0').transform((raw, ctx) => {
    try {
      return parseTrustProxy(raw);
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: (error as Error).message });
      return z.NEVER;
    }
  }),
  OIDC_ISSUER_URL: optionalUrl,
  OIDC_CLIENT_ID: optionalString,
  OIDC_CLIENT_SECRET: optionalString,
  /**
   * Accept an ID token that says nothing about email_verified. Off: only a provider that vouches
   * for the address (email_verified: true) signs anyone in; false is refused either way.
   */
  OIDC_ALLOW_MISSING_EMAIL_VERIFIED: z.enum(['true', 'false']).default('false').transform((v) => v === 'true'),
  /** E-mails (comma list) that are administrators; checked again on every request, not only at sign-in. */
  ADMIN_EMAILS: commaList,
  /** A client must have sent a request's headers within this time, else it is answered 408 and cut off. */
  HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).max(300_000).default(10_000),
  /** ... and the whole request, body included. Long answers (streams) are not limited by it. */
  HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
  /** An idle kept-alive connection is closed after this; above a proxy's own idle timeout (often 60 s). */
  HTTP_KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(72_000),
  /** Where /ready and /metrics listen: an operations port kept off the public one (0 picks a free port). */
  OPS_PORT: z.coerce.number().int().min(0).max(65535).default(9464),
  /** Built web app; served for every non-API path when the folder exists. */
  WEB_DIST_DIR: optionalString,
  /** How long cacheable public reads stay in gateway memory. */
  PUBLIC_CACHE_TTL_MS: z.coerce.number().int().min(0).max(60_000).default(2_000),
  /** Internal base URL of every domain service of the registry: PRICING_URL and so on. */
  ...Object.fromEntries(domainServiceNames.map((name) => [urlVariableOf(name), z.url()])),
}).refine((env) => env.HTTP_HEADERS_TIMEOUT_MS <= env.HTTP_REQUEST_TIMEOUT_MS, {
  path: ['HTTP_HEADERS_TIMEOUT_MS'],
  message: 'must not exceed HTTP_REQUEST_TIMEOUT_MS',
});
export type GatewayConfig = z.infer<typeof gatewayEnvSchema>;

export const loadGatewayConfig = (env: NodeJS.ProcessEnv = process.env) => loadConfig(gatewayEnvSchema, env);

export const isHttps = (config: Pick<GatewayConfig, 'PUBLIC_URL'>) => new URL(config.PUBLIC_URL).protocol === 'https:';
