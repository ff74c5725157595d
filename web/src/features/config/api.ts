/** The configuration-status call. Its shape is the route contract's (types only). */
import type { configStatus, ReplyOf } from '@bo/proto';
import { apiKey } from '../../lib/paths';

export type ConfigStatusReply = ReplyOf<typeof configStatus>;
export type ConfigStatusItem = ConfigStatusReply['data'][number];

export const configKeys = { status: apiKey('/api/admin/config-status') } as const;
