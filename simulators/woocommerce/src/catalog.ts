import { WooError, invalidId } from './errors';
import { productSpec, validateFields, variationSpec } from './schema';
import type { Product, Variation, WooState } from './state';

const now = () => new Date().toISOString().slice(0, 19);
const slugify = (name: string) => name.toLowerCase().normalize('NFKD').replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-|-$/g, '') || 'product';

/** A sale price below the regular price puts the item on sale; price follows. */
function pricing(regular: string, sale: string) {
  const onSale = sale !== '' && (regular === '' || Number(sale) < Number(regular));
  return { price: onSale ? sale : regular, on_sale: onSale };
}

/** WooCommerce sets the stock status itself when it manages the quantity. */
function settleStock(item: Product | Variation): void {
  if (item.manage_stock === true && item.stock_quantity !== null) {
    item.stock_status = item.stock_quantity > 0 ? 'instock' : item.backorders === 'no' ? 'outofstock' : 'onbackorder';
  }
}

function assertUniqueSku(state: WooState, sku: unknown, selfId: number): void {
  if (typeof sku !== 'string' || sku === '') return;
  const taken = [...state.products.values(), ...state.variations.values()].some((item) => item.sku === sku && item.id !== selfId);
  if (taken) throw new WooError(400, 'product_invalid_sku', 'Invalid or duplicated SKU.');
}

const baseFields = () => ({
  description: '',
  sku: '',
  regular_price: '',
  sale_price: '',
  virtual: true,
  downloadable: false,
  stock_quantity: null,
  stock_status: 'instock' as const,
  backorders: 'no' as const,
  attributes: [],
  meta_data: [],
  menu_order: 0,
  date_created: now(),
  date_modified: now(),
});

function apply<T extends Product | Variation>(item: T, fields: Record<string, unknown>): T {
  Object.assign(item, fields, { date_modified: now() });
  if (Array.isArray(fields.meta_data)) item.meta_data = fields.meta_data.map((entry, index) => ({ id: item.id * 100 + index + 1, ...(entry as object) }));
  settleStock(item);
  return item;
}

export function createProduct(state: WooState, body: unknown): Product {
  const fields = validateFields(body, productSpec);
  const id = state.nextId();
  assertUniqueSku(state, fields.sku, id);
  const name = (fields.name as string | undefined) ?? '';
  const product: Product = {
    ...baseFields(),
    id,
    name,
    slug: slugify(name || `product-${id}`),
    type: 'simple',
    status: 'publish',
    featured: false,
    catalog_visibility: 'visible',
    short_description: '',
    manage_stock: false,
    categories: [],
    tags: [],
    images: [],
    default_attributes: [],
    total_sales: 0,
  };
  state.products.set(id, apply(product, fields));
  return product;
}

export function findProduct(state: WooState, id: number): Product {
  const product = state.products.get(id);
  if (!product) throw invalidId('product');
  return product;
}

/** Partial update: only the fields sent change. */
export function updateProduct(state: WooState, id: number, body: unknown): Product {
  const product = findProduct(state, id);
  const fields = validateFields(body, productSpec);
  assertUniqueSku(state, fields.sku, id);
  return apply(product, fields);
}

/** Without force the product goes to the trash; with force it (and its variations) is gone for good. */
export function deleteProduct(state: WooState, id: number, force: boolean) {
  const product = findProduct(state, id);
  if (!force) {
    if (product.status === 'trash') throw new WooError(410, 'woocommerce_rest_already_trashed', 'The product has already been deleted.');
    product.status = 'trash';
    return productView(state, product);
  }
  const view = productView(state, product);
  for (const variation of state.variationsOf(id)) state.variations.delete(variation.id);
  state.products.delete(id);
  return view;
}

export function productView(state: WooState, product: Product) {
  const variations = state.variationsOf(product.id);
  const { regular_price, sale_price } = product.type === 'variable' ? variablePrices(variations) : product;
  const { price, on_sale } = pricing(regular_price, sale_price);
  return {
    id: product.id,
    name: product.name,
    slug: product.slug,
    permalink: `${state.options.storeUrl}/product/${product.slug}/`,
    date_created: product.date_created,
    date_created_gmt: product.date_created,
    date_modified: product.date_modified,
    date_modified_gmt: product.date_modified,
    type: product.type,
    status: product.status,
    featured: product.featured,
    catalog_visibility: product.catalog_visibility,
    description: product.description,
    short_description: product.short_description,
    sku: product.sku,
    price,
    regular_price,
    sale_price,
    on_sale,
    purchasable: price !== '' && product.status === 'publish',
    total_sales: product.total_sales,
    virtual: product.virtual,
    downloadable: product.downloadable,
    tax_status: 'taxable',
    tax_class: '',
    manage_stock: product.manage_stock,
    stock_quantity: product.stock_quantity,
    stock_status: product.stock_status,
    backorders: product.backorders,
    parent_id: 0,
    categories: product.categories,
    tags: product.tags,
    images: product.images,
    attributes: product.attributes,
    default_attributes: product.default_attributes,
    variations: variations.map((v) => v.id),
    menu_order: product.menu_order,
    meta_data: product.meta_data,
  };
}

/** A variable product's prices come from its published variations (the cheapest). */
function variablePrices(variations: Variation[]) {
  const live = variations.filter((v) => v.status === 'publish' && v.regular_price !== '');
  if (live.length === 0) return { regular_price: '', sale_price: '' };
  const cheapest = live.reduce((best, v) => (Number(pricing(v.regular_price, v.sale_price).price) < Number(pricing(best.regular_price, best.sale_price).price) ? v : best));
  return { regular_price: cheapest.regular_price, sale_price: cheapest.sale_price };
}

export function createVariation(state: WooState, productId: number, body: unknown): Variation {
  findProduct(state, productId);
  const fields = validateFields(body, variationSpec);
  const id = state.nextId();
  assertUniqueSku(state, fields.sku, id);
  const variation: Variation = { ...baseFields(), id, parent_id: productId, status: 'publish', manage_stock: false, image: null };
  state.variations.set(id, apply(variation, fields));
  return variation;
}

export function findVariation(state: WooState, productId: number, id: number): Variation {
  findProduct(state, productId);
  const variation = state.variations.get(id);
  if (!variation || variation.parent_id !== productId) throw invalidId('product_variation');
  return variation;
}

export function updateVariation(state: WooState, productId: number, id: number, body: unknown): Variation {
  const variation = findVariation(state, productId, id);
  const fields = validateFields(body, variationSpec);
  assertUniqueSku(state, fields.sku, id);
  return apply(variation, fields);
}

/** Variations have no trash: force is required. */
export function deleteVariation(state: WooState, productId: number, id: number, force: boolean) {
  const variation = findVariation(state, productId, id);
  if (!force) throw new WooError(501, 'woocommerce_rest_trash_not_supported', 'The product_variation does not support trashing.');
  const view = variationView(state, variation);
  state.variations.delete(id);
  return view;
}

export function variationView(state: WooState, variation: Variation) {
  const { price, on_sale } = pricing(variation.regular_price, variation.sale_price);
  const parent = state.products.get(variation.parent_id);
  return {
    id: variation.id,
    parent_id: variation.parent_id,
    date_created: variation.date_created,
    date_modified: variation.date_modified,
    description: variation.description,
    permalink: `${state.options.storeUrl}/product/${parent?.slug ?? 'product'}/?variation_id=${variation.id}`,
    sku: variation.sku,
    price,
    regular_price: variation.regular_price,
    sale_price: variation.sale_price,
    on_sale,
    status: variation.status,
    purchasable: price !== '' && variation.status === 'publish',
    virtual: variation.virtual,
    downloadable: variation.downloadable,
    manage_stock: variation.manage_stock,
    stock_quantity: variation.stock_quantity,
    stock_status: variation.stock_status,
    backorders: variation.backorders,
    image: variation.image,
    attributes: variation.attributes,
    menu_order: variation.menu_order,
    meta_data: variation.meta_data,
  };
}
