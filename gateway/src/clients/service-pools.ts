import { Pool } from 'undici';
import type { GatewayConfig } from '../config';
import { serviceUrl, services, type ServiceName } from '../routing-table';

/** One keep-alive connection pool per service of the routing table. */
export class ServicePools {
  private readonly pools = new Map<ServiceName, Pool>();

  constructor(config: GatewayConfig) {
    for (const service of services) {
      this.pools.set(
        service.name,
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
