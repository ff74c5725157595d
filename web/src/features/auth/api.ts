/**
 * The sign-in calls. Their shapes are the route contracts' (types only: no zod in the bundle).
 */
import type { passwordLogin, RequestBodyOf } from '@bo/proto';
import { apiKey } from '../../lib/paths';

export type { AuthUser } from '@bo/proto';
export type AdminCredentials = RequestBodyOf<typeof passwordLogin>;

export const authKeys = {
  user: apiKey('/api/auth/user'),
} as const;

export const authPaths = {
  oidcLogin: '/api/login',
  passwordLogin: '/api/admin/login',
  logout: '/api/logout',
} as const;
