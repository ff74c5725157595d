import type { FastifyInstance } from 'fastify';
import { serveRoute } from '@bo/platform';
import { getCacheStatus, invalidateCache } from '@bo/proto';
import type { PriceCatalog } from '../domain/price-catalog';

export function registerCacheRoutes(app: FastifyInstance, catalog: PriceCatalog): void {
  serveRoute(app, getCacheStatus, () => catalog.cacheStatus());

  // Clearing forces a live reload, so the operator sees at once whether the sheet answers.
  serveRoute(app, invalidateCache, async () => {
    const fresh = await catalog.reload();
    return { success: true, message: 'Cache cleared; fresh data loaded from Google Sheets', count: fresh.rows.length };
  });
}
