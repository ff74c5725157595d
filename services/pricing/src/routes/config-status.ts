import type { FastifyInstance } from 'fastify';
import { usesSheetsSimulator, type PricingConfig } from '../config';

/** What the gateway's config-status page shows for this service. */
export function registerConfigStatusRoute(app: FastifyInstance, config: PricingConfig): void {
  app.get('/internal/config-status', async () => ({
    items: [
      { name: 'Google Sheets price list', category: 'Pricing', configured: true, simulated: usesSheetsSimulator(config) },
      { name: 'Price cache (Redis)', category: 'Pricing', configured: Boolean(config.REDIS_URL), simulated: false },
    ],
  }));
}
