import type { FastifyInstance } from 'fastify';
import { serveRoute } from '@bo/platform';
import { getOrder, searchOrders, type OrderSummary } from '@bo/proto';
import type { WooOrder } from '../clients/woocommerce';
import { fromShop, requireShop } from './shop-errors';
import type { ShopRouteDeps } from './shop';

const SEARCH_LIMIT = 50;

function orderSummary(order: WooOrder): OrderSummary {
  const { first_name = '', last_name = '', email = '', phone = '' } = order.billing;
  return {
    id: order.id, number: order.number, status: order.status, currency: order.currency, total: order.total, dateCreated: order.date_created,
    customer: { name: `${first_name} ${last_name}`.trim(), email, phone },
    items: order.line_items.map((line) => ({ name: line.name, productId: line.product_id, variationId: line.variation_id, quantity: line.quantity, total: line.total, sku: line.sku })),
  };
}

const digits = (text: string) => text.replace(/\D/g, '');

/** Order lookups for the operator: by id, or by the billing e-mail or phone a customer gives. */
export function registerOrderRoutes(app: FastifyInstance, { shop }: Pick<ShopRouteDeps, 'shop'>): void {
  serveRoute(app, getOrder, async ({ params }) => {
    const order = await fromShop(() => requireShop(shop).getOrder(params.id), `Order ${params.id} not found in WooCommerce`);
    return { success: true, data: orderSummary(order) };
  });

  serveRoute(app, searchOrders, async ({ body }) => {
    // WooCommerce's search is loose (names, addresses, parts of words): keep only exact billing matches.
    const found = await fromShop(() => requireShop(shop).searchOrders(body.email ?? digits(body.phone!), 100));
    const matches = found.filter((order) =>
      body.email ? order.billing.email?.toLowerCase() === body.email.toLowerCase() : digits(order.billing.phone ?? '') === digits(body.phone!),
    );
    const data = matches.slice(0, SEARCH_LIMIT).map(orderSummary);
    return { success: true, count: data.length, data };
  });
}
