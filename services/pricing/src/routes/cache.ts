import type { FastifyInstance } from 'fastify';
import type { PriceCatalog } from '../price-catalog';

export function registerCacheRoutes(app: FastifyInstance, catalog: PriceCatalog): void {
  app.get('/api/cache/status', async () => catalog.cacheStatus());

  // Clearing forces a live reload, so the operator sees at once whether the sheet answers.
  app.post('/api/cache/invalidate', async () => {
    const fresh = await catalog.reload();
    return { success: true, message: 'Cache cleared; fresh data loaded from Google Sheets', count: fresh.rows.length };
  });
}
