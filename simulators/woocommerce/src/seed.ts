import { createProduct, createVariation } from './catalog';
import { createOrder, type OrderInput } from './orders';
import type { WooState } from './state';

export interface SeedProduct extends Record<string, unknown> {
  variations?: Record<string, unknown>[];
}
export interface SeedData {
  products: SeedProduct[];
  /** line_items refer to products by sku here, so a seed needs no ids. */
  orders: (Omit<OrderInput, 'line_items'> & { line_items?: { sku: string; quantity?: number }[] })[];
}

const variable = (name: string, sku: string, attribute: string, options: [string, string][], category: string): SeedProduct => ({
  name,
  type: 'variable',
  sku,
  categories: [{ id: category === 'Стриминг' ? 15 : 16, name: category, slug: category === 'Стриминг' ? 'streaming' : 'games' }],
  attributes: [{ id: 0, name: attribute, position: 0, visible: true, variation: true, options: options.map(([option]) => option) }],
  variations: options.map(([option, price], index) => ({ sku: `${sku}-${index + 1}`, regular_price: price, attributes: [{ id: 0, name: attribute, option }] })),
});
const simple = (name: string, sku: string, regular_price: string, extra: Record<string, unknown> = {}): SeedProduct => ({ name, type: 'simple', sku, regular_price, ...extra });

/** A shop selling streaming subscriptions and game items in MNT. */
export const defaultSeed = (): SeedData => ({
  products: [
    variable('Netflix Premium', 'NFX-PREM', 'Хугацаа', [['1 сар', '35000'], ['3 сар', '99000'], ['6 сар', '189000']], 'Стриминг'),
    variable('Spotify Premium', 'SPOT-PREM', 'Хугацаа', [['1 сар', '15000'], ['3 сар', '42000']], 'Стриминг'),
    simple('YouTube Premium 1 сар', 'YT-PREM-1M', '19000', { sale_price: '17000' }),
    simple('Disney+ 1 сар', 'DSNY-1M', '25000', { status: 'draft' }),
    variable('PUBG Mobile UC', 'PUBG-UC', 'Багц', [['60 UC', '4000'], ['325 UC', '19000'], ['660 UC', '38000'], ['1800 UC', '95000']], 'Тоглоом'),
    simple('Mobile Legends 86 Diamonds', 'MLBB-86', '6500'),
    simple('Steam Wallet $20', 'STEAM-20', '72000', { manage_stock: true, stock_quantity: 5 }),
    simple('Free Fire 520 Diamonds', 'FF-520', '15000', { stock_status: 'outofstock' }),
  ],
  orders: [
    { status: 'completed', customer_id: 12, billing: { first_name: 'Бат-Эрдэнэ', last_name: 'Болд', email: 'bat.erdene@example.mn', phone: '99112233' }, line_items: [{ sku: 'NFX-PREM-1' }], date_created: '2025-05-02T10:15:00' },
    { status: 'processing', customer_id: 13, billing: { first_name: 'Сарангэрэл', last_name: 'Дорж', email: 'saraa@example.mn', phone: '88001122' }, line_items: [{ sku: 'PUBG-UC-3' }, { sku: 'MLBB-86', quantity: 2 }], date_created: '2025-05-03T14:40:00' },
    { status: 'pending', billing: { first_name: 'Тэмүүлэн', last_name: 'Ганбаатар', email: 'temuulen@example.mn', phone: '95556677' }, line_items: [{ sku: 'SPOT-PREM-2' }], date_created: '2025-05-04T09:05:00' },
    { status: 'on-hold', customer_id: 12, billing: { first_name: 'Бат-Эрдэнэ', last_name: 'Болд', email: 'bat.erdene@example.mn', phone: '99112233' }, line_items: [{ sku: 'YT-PREM-1M' }], date_created: '2025-05-05T18:20:00' },
  ],
});

/** Replaces catalogue and orders with the given data. */
export function applySeed(state: WooState, data: SeedData): void {
  state.products.clear();
  state.variations.clear();
  state.orders.clear();
  for (const { variations = [], ...product } of data.products) {
    const created = createProduct(state, product);
    for (const variation of variations) createVariation(state, created.id, variation);
  }
  for (const { line_items = [], ...order } of data.orders) createOrder(state, { ...order, line_items: line_items.map(({ sku, quantity }) => lineForSku(state, sku, quantity)) });
}

export function lineForSku(state: WooState, sku: string, quantity?: number) {
  const variation = [...state.variations.values()].find((v) => v.sku === sku);
  const product = variation ? state.products.get(variation.parent_id) : [...state.products.values()].find((p) => p.sku === sku);
  if (!product) throw new Error(`no product with sku ${sku}`);
  return { product_id: product.id, variation_id: variation?.id, quantity };
}
