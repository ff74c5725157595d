import { Pool } from 'undici';
import type { GatewayConfig } from '../config';
import { serviceNames, serviceUrl, type ServiceName } from '../routing-table';

/** One keep-alive connection pool per domain service of the registry. */
export class ServicePools {
  private readonly pools = new Map<ServiceName, Pool>();

  constructor(config: GatewayConfig) {
    for (const service of serviceNames) {
      this.pools.set(
        service,
        new Pool(serviceUrl(config, service), {
          connections: 64,
          keepAliveTimeout: 30_000,
          headersTimeout: 30_000,
          // Server-sent events may stay quiet for long; the client's disconnect ends them.
          bodyTimeout: 0,
        }),
      );
    }
  }

  get(name: ServiceName): Pool {
    const pool = this.pools.get(name);
    if (!pool) throw new Error(`No pool for service ${name}`);
    return pool;
  }

  async close(): Promise<void> {
    await Promise.all([...this.pools.values()].map((pool) => pool.destroy()));
  }
}
