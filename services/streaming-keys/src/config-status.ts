import type { ConfigItem } from '@bo/proto';
import type { StreamingKeysConfig } from './config';

const CATEGORY = 'Streaming keys';
const HEALTH_TIMEOUT_MS = 2_000;

/** Whether payments answers its health check: without it no order or renewal invoice can be made. */
async function paymentsReachable(paymentsUrl: string): Promise<string | null> {
  try {
    const response = await fetch(new URL('/health', paymentsUrl), { signal: AbortSignal.timeout(HEALTH_TIMEOUT_MS) });
    return response.ok ? null : `payments answered ${response.status}`;
  } catch (error) {
    return `payments is not reachable at ${paymentsUrl} (${(error as Error).message})`;
  }
}

/** What the gateway's config-status page shows for this service (secrets never, only whether they are set). */
export async function streamingKeysConfigItems(config: StreamingKeysConfig): Promise<ConfigItem[]> {
  const unreachable = await paymentsReachable(config.PAYMENTS_URL);
  return [
    { name: 'Payments service (streaming invoices and renewal links)', category: CATEGORY, configured: unreachable === null, simulated: false, ...(unreachable ? { error: unreachable } : {}) },
    { name: 'Public URL (renewal links)', category: CATEGORY, configured: Boolean(config.PUBLIC_URL), simulated: false },
    { name: 'Data encryption key (account passwords)', category: CATEGORY, configured: Boolean(config.DATA_ENCRYPTION_KEY), simulated: false },
  ];
}
