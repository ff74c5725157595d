import { serveRoute, ServiceClient, type IdentitySigner } from '@bo/platform';
import { configStatus, platformRoutesOf, type ConfigItem } from '@bo/proto';
import type { FastifyInstance } from 'fastify';
import { allowsInsecureIssuer } from '../clients/oidc';
import type { GatewayConfig } from '../config';
import { serviceNames, serviceUrl, type ServiceName } from '../routing-table';

const SERVICE_TIMEOUT_MS = 3_000;

function gatewayItems(config: GatewayConfig): ConfigItem[] {
  const issuer = config.OIDC_ISSUER_URL;
  return [
    { name: 'OpenID Connect issuer', category: 'Authentication', configured: Boolean(issuer && config.OIDC_CLIENT_ID && config.OIDC_CLIENT_SECRET), simulated: issuer ? allowsInsecureIssuer(new URL(issuer)) : false },
    { name: 'Admin e-mails', category: 'Authentication', configured: config.ADMIN_EMAILS.length > 0, simulated: false },
    // The embedded run has no Redis or RabbitMQ and its own PostgreSQL: say what stands in for each.
    { name: config.DATABASE_URL ? 'Database (PostgreSQL)' : 'Database (PostgreSQL from npm, embedded)', category: 'Infrastructure', configured: true, simulated: false },
    { name: config.REDIS_URL ? 'Cache and rate limits (Redis)' : 'Cache and rate limits (in memory, one process)', category: 'Infrastructure', configured: true, simulated: false },
    { name: config.AMQP_URL ? 'Events (RabbitMQ)' : 'Events (durable queue in the embedded PostgreSQL)', category: 'Infrastructure', configured: true, simulated: false },
  ];
}

async function serviceItems(config: GatewayConfig, signer: IdentitySigner, service: ServiceName): Promise<ConfigItem[]> {
  const client = new ServiceClient({ baseUrl: serviceUrl(config, service), signer, timeoutMs: SERVICE_TIMEOUT_MS });
  try {
    return (await client.call(platformRoutesOf(service).configStatus)).items.map((item) => ({ ...item, service }));
  } catch (error) {
    return [{ name: `${service} service`, category: 'Services', configured: false, simulated: false, error: `unreachable: ${(error as Error).message}`, service }];
  }
}

/** Configuration status of the whole system: the gateway's own items and every service's, each naming the process it is of. */
export function registerConfigStatusRoute(app: FastifyInstance, deps: { config: GatewayConfig; signer: IdentitySigner }): void {
  serveRoute(app, configStatus, async () => {
    const perService = await Promise.all(serviceNames.map((service) => serviceItems(deps.config, deps.signer, service)));
    return { data: [...gatewayItems(deps.config).map((item) => ({ ...item, service: 'gateway' as const })), ...perService.flat()] };
  });
}
