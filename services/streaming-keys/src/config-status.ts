import type { ConfigItem } from '@bo/proto';
import type { StreamingKeysConfig } from './config';

/** What the gateway's config-status page shows for this service (secrets never, only whether they are set). */
export function streamingKeysConfigItems(config: StreamingKeysConfig): ConfigItem[] {
  return [
    { name: 'Payments service URL (streaming invoices and renewals)', category: 'Streaming keys', configured: Boolean(config.PAYMENTS_URL), simulated: false },
    { name: 'Public URL (renewal links)', category: 'Streaming keys', configured: Boolean(config.PUBLIC_URL), simulated: false },
    { name: 'Data encryption key (account passwords)', category: 'Streaming keys', configured: Boolean(config.DATA_ENCRYPTION_KEY), simulated: false },
  ];
}
