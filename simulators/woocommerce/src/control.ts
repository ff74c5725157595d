import { randomInt } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { productView, variationView } from './catalog';
import { WooError } from './errors';
import { createOrder, orderStatuses } from './orders';
import { applySeed, lineForSku, type SeedData } from './seed';
import type { WooState } from './state';

const optionsSchema = z.object({ storeUrl: z.string().url(), batchLimit: z.number().int().positive(), pagePastEnd: z.enum(['empty', 'error']) }).partial();
const keySchema = z.object({
  consumer_key: z.string().startsWith('ck_'),
  consumer_secret: z.string().startsWith('cs_'),
  permission: z.enum(['read', 'write', 'read_write']),
  description: z.string().default('Added by a test'),
});
const orderSchema = z.object({
  status: z.enum(orderStatuses as [string, ...string[]]).default('processing'),
  customer_id: z.number().int().optional(),
  billing: z.record(z.string(), z.string()).optional(),
  /** Products by sku; a random published item when absent. */
  line_items: z.array(z.object({ sku: z.string(), quantity: z.number().int().positive().optional() })).optional(),
});

const buyers = [
  { first_name: 'Нарантуяа', last_name: 'Мөнх', email: 'naraa@example.mn', phone: '99887766' },
  { first_name: 'Ганзориг', last_name: 'Сүх', email: 'ganzo@example.mn', phone: '80114455' },
  { first_name: 'Энхжин', last_name: 'Бат', email: 'enkhjin@example.mn', phone: '94443322' },
];

/** /__sim/ routes: options, keys, seed, the catalogue with variations, and "add an order". */
export function registerControlRoutes(app: FastifyInstance, state: WooState): void {
  app.register(async (scope) => {
    scope.setErrorHandler((error, _request, reply) => {
      if (error instanceof z.ZodError) return reply.code(400).send({ error: 'invalid request', details: error.issues });
      if (error instanceof WooError) return reply.code(error.status).send(error.toBody());
      return reply.code(400).send({ error: error instanceof Error ? error.message : String(error) });
    });
    scope.get('/options', async () => state.options);
    scope.post('/options', async (request) => Object.assign(state.options, optionsSchema.parse(request.body)));
    scope.get('/keys', async () => ({ keys: state.keys }));
    scope.post('/keys', async (request) => {
      state.keys.push(keySchema.parse(request.body));
      return { keys: state.keys };
    });
    scope.post('/seed', async (request) => {
      const data = (request.body ?? {}) as Partial<SeedData>;
      applySeed(state, { products: data.products ?? [], orders: data.orders ?? [] });
      return { products: state.products.size, orders: state.orders.size };
    });
    scope.get('/products', async () => ({
      products: [...state.products.values()].map((p) => ({ ...productView(state, p), variation_details: state.variationsOf(p.id).map((v) => variationView(state, v)) })),
    }));
    scope.get('/orders', async () => ({ orders: [...state.orders.values()] }));
    scope.post('/orders', async (request, reply) => {
      const input = orderSchema.parse(request.body ?? {});
      const published = [...state.products.values()].filter((p) => p.status === 'publish');
      const randomSku = () => {
        const product = published[randomInt(published.length)];
        const variations = state.variationsOf(product.id);
        return variations.length ? variations[randomInt(variations.length)].sku : product.sku;
      };
      if (!input.line_items && published.length === 0) return reply.code(409).send({ error: 'no published products to order' });
      const lines = input.line_items ?? [{ sku: randomSku() }];
      const order = createOrder(state, { ...input, billing: input.billing ?? buyers[randomInt(buyers.length)], line_items: lines.map((l) => lineForSku(state, l.sku, l.quantity)) });
      return reply.code(201).send(order);
    });
  }, { prefix: '/__sim' });
}
