import { actionButton, escapeHtml, htmlTable, type PageSection } from '@bo/sim-kit';
import { productView, variationView } from './catalog';
import type { WooState } from './state';

/** The /__sim/ page: keys, products with their variations, orders and an "add order" button. */
export function wooSections(state: WooState): PageSection[] {
  const products = [...state.products.values()].map((product) => {
    const view = productView(state, product);
    const variations = state.variationsOf(product.id).map((v) => {
      const variation = variationView(state, v);
      return `${variation.sku} ${variation.attributes.map((a) => a.option).join('/')} ${variation.price}₮`;
    });
    return { id: view.id, name: view.name, type: view.type, status: view.status, sku: view.sku, price: view.price, stock_status: view.stock_status, variations: variations.join('; ') };
  });
  const orders = [...state.orders.values()].reverse().map((o) => ({
    id: o.id,
    status: o.status,
    date_created: o.date_created,
    customer: `${o.billing.first_name} ${o.billing.last_name}`,
    email: o.billing.email,
    phone: o.billing.phone,
    total: `${o.total} ${o.currency}`,
    items: o.line_items.map((l) => (l as unknown as { name: string }).name).join(', '),
  }));
  return [
    {
      title: 'Connection',
      html: `<p>Base <code>/wp-json/wc/v3</code> or <code>/?rest_route=/wc/v3/…</code>; Basic auth or <code>?consumer_key=&amp;consumer_secret=</code> (plain HTTP accepted here). Batch limit ${state.options.batchLimit}.</p>${htmlTable(state.keys as never, ['description', 'permission', 'consumer_key', 'consumer_secret'])}`,
    },
    { title: `Products (${products.length})`, html: htmlTable(products, ['id', 'name', 'type', 'status', 'sku', 'price', 'stock_status', 'variations']) },
    {
      title: `Orders (${orders.length})`,
      html: `${actionButton('Add an order (random item)', '/__sim/orders', {})}${actionButton('Add a pending order', '/__sim/orders', { status: 'pending' })}${htmlTable(orders, ['id', 'status', 'date_created', 'customer', 'email', 'phone', 'total', 'items'])}<p>${escapeHtml('Orders can also be added by POST /__sim/orders {status?, billing?, line_items?: [{sku, quantity?}]}.')}</p>`,
    },
  ];
}
