import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { currentCorrelationId, parseInput } from '@bo/platform';
import { priceRowSchema } from '@bo/proto';
import { priceSummary } from '../domain/price-rows';
import type { PriceCatalog } from '../price-catalog';
import { woocommerceSyncOutcome } from './woocommerce-sync';

const listQuery = z.object({ format: z.enum(['array', 'summary']).default('summary') });
const productParams = z.object({ product: z.string().trim().min(1, 'product is required').max(200) });
/** Editing one product by name: any subset of the row's fields except the name it is found by. */
const productEdit = priceRowSchema.partial().strict().refine((edit) => Object.keys(edit).length > 0, 'at least one field is required');

/** Price reads are public: the chat platform calls them. Writes are admin-only (the default). */
export function registerPriceRoutes(app: FastifyInstance, catalog: PriceCatalog): void {
  app.get('/api/prices', { config: { access: 'public' } }, async (request) => {
    const { format } = parseInput(listQuery, request.query, 'query');
    const list = await catalog.list();
    return {
      success: true,
      data: format === 'array' ? list.rows : list.rows.map(priceSummary),
      count: list.rows.length,
      lastUpdated: list.fetchedAt,
      stale: list.stale,
    };
  });

  app.get('/api/prices/:product', { config: { access: 'public' } }, async (request) => {
    const { product } = parseInput(productParams, request.params, 'params');
    const { stale, ...row } = await catalog.get(product);
    return { success: true, data: priceSummary(row), stale };
  });

  app.post('/api/prices/:product', async (request) => {
    const { product } = parseInput(productParams, request.params, 'params');
    const edit = parseInput(productEdit, request.body);
    const current = await catalog.get(product);
    const { stale: _stale, ...row } = current;
    const updated = await catalog.update({ ...row, ...edit }, product, currentCorrelationId());
    return { success: true, data: priceSummary(updated.row), woocommerceSync: woocommerceSyncOutcome() };
  });
}
