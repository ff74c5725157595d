/** The customer portal's calls. Their shapes are the route contracts' (types only: no zod in the bundle). */
import type { customerGenerateQr, customerKeys, customerLoginDirect, customerSession, ReplyOf, RequestBodyOf } from '@bo/proto';
import { apiKey, apiKeyPrefix, apiPath } from '../../lib/paths';

export type { CustomerKey, ParseEmailType, ServiceCode } from '@bo/proto';

export type CustomerCredentials = RequestBodyOf<typeof customerLoginDirect>;
export type LoginReply = ReplyOf<typeof customerLoginDirect>;
export type CustomerSession = ReplyOf<typeof customerSession>;
export type CustomerKeysReply = ReplyOf<typeof customerKeys>;
export type CustomerQrReply = ReplyOf<typeof customerGenerateQr>;

/** Every customer query starts with '/api/customer': signing in or out drops them all at once. */
export const customerKeysOf = {
  all: apiKeyPrefix('/api/customer'),
  session: apiKey('/api/customer/session'),
  keys: apiKey('/api/customer/keys'),
} as const;

export const customerPaths = {
  login: '/api/customer/login-direct',
  logout: '/api/customer/logout',
  parseEmail: '/api/customer/parse-email',
  qr: (id: number) => apiPath('/api/customer/generate-qr/:id', { id }),
} as const;

export const CUSTOMER_LOGIN_PATH = '/customer-login';
