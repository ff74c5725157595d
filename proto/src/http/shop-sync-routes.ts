import { z } from 'zod';
import { defineRoute, nameParam, successReply } from './contract';
import { idParam, INT32_MAX, wholeNumberFromText } from './fields';
import { woocommerceSyncOutcomes } from './prices';

/** The shop's connection as the /woocommerce page shows it (document 1 §3 "store status"). */
export const storeStatusSchema = z.object({
  configured: z.boolean(),
  connected: z.boolean(),
  /** Why the shop could not be reached (configured but failed); null otherwise. */
  error: z.string().nullable(),
  /** Products in the shop (variations not counted); null unless connected. */
  count: z.number().int().nullable(),
  storeUrl: z.string().nullable(),
});
export type StoreStatus = z.infer<typeof storeStatusSchema>;

/** A product or a variation as the shop lists it. */
export const shopItemSchema = z.object({
  id: z.number().int(),
  /** 0 for a product; the variable product's id for a variation. */
  parentId: z.number().int(),
  name: z.string(),
  type: z.string(),
  sku: z.string(),
  status: z.string(),
  regularPrice: z.string(),
  salePrice: z.string(),
  price: z.string(),
  permalink: z.string(),
});
export type ShopItem = z.infer<typeof shopItemSchema>;

/** One row of woocommerce_product_mapping (document 3), as the mappings table shows it. */
export const productMappingSchema = z.object({
  id: z.number().int(),
  productName: z.string(),
  woocommerceId: z.number().int(),
  /** The variable product of a mapped variation; null for a product. */
  parentId: z.number().int().nullable(),
  permalink: z.string().nullable(),
  lastSynced: z.string().nullable(),
  lastSyncedPrice: z.string().nullable(),
  lastSyncedRegularPrice: z.string().nullable(),
  lastSyncedSalePrice: z.string().nullable(),
  /** Who made it: the operator's form, or auto-map. Auto-map never replaces a manual one silently. */
  mappedBy: z.enum(['manual', 'auto']),
});
export type ProductMapping = z.infer<typeof productMappingSchema>;

/** The shop id of the add form: a positive whole number, sent as a number or as digits. */
const shopId = wholeNumberFromText(z.number().int().positive().max(INT32_MAX), 'must be a number', 'the add form sends the id as typed');

export const syncFailureSchema = z.object({ productName: z.string(), error: z.string() });

/** A sync of all mapped products: its progress while it runs, its counts when it ends. */
export const syncRunSchema = z.object({
  /** The platform run's id (`shop-sync.<uuid>`, see runs.ts): Background work shows it too. */
  id: z.string(),
  /** A run whose process stopped is taken up again by another, so it stays `running` until it ends. */
  status: z.enum(['running', 'finished', 'failed', 'cancelled']),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  /** Mapped products considered. */
  total: z.number().int(),
  processed: z.number().int(),
  synced: z.number().int(),
  failed: z.number().int(),
  /** Already at the sheet's price, or not in the sheet. */
  skipped: z.number().int(),
  /** Batch requests made to the shop. */
  batchCalls: z.number().int(),
  failures: z.array(syncFailureSchema),
  /** Why the whole run stopped (status failed). */
  error: z.string().nullable(),
});
export type SyncRun = z.infer<typeof syncRunSchema>;

export const autoMapOutcomes = ['mapped', 'unchanged', 'kept_manual', 'not_found'] as const;
export const autoMapResultSchema = z.object({
  productName: z.string(),
  woocommerceId: z.number().int().nullable(),
  /** What matched: the sheet's woocommerceId, the SKU, or the normalised name. */
  matchedBy: z.enum(['id', 'sku', 'name']).nullable(),
  outcome: z.enum(autoMapOutcomes),
  message: z.string(),
});
export type AutoMapResult = z.infer<typeof autoMapResultSchema>;

export const priceDifferenceSchema = z.object({
  productName: z.string(),
  woocommerceId: z.number().int(),
  sheetRegularPrice: z.string(),
  sheetSalePrice: z.string(),
  shopRegularPrice: z.string(),
  shopSalePrice: z.string(),
});

export const pricePushOutcomes = ['pending', ...woocommerceSyncOutcomes] as const;
/** What became of one price edit in the shop (the consumer's decision, then the shop's answer). */
export const pricePushSchema = z.object({
  eventId: z.string(),
  productName: z.string(),
  revision: z.number().int(),
  regularPrice: z.string(),
  salePrice: z.string(),
  outcome: z.enum(pricePushOutcomes),
  error: z.string().nullable(),
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
});
export type PricePush = z.infer<typeof pricePushSchema>;

export const orderSummarySchema = z.object({
  id: z.number().int(),
  number: z.string(),
  status: z.string(),
  currency: z.string(),
  total: z.string(),
  dateCreated: z.string(),
  customer: z.object({ name: z.string(), email: z.string(), phone: z.string() }),
  items: z.array(z.object({ name: z.string(), productId: z.number().int(), variationId: z.number().int(), quantity: z.number().int(), total: z.string(), sku: z.string() })),
});
export type OrderSummary = z.infer<typeof orderSummarySchema>;

const exampleMapping: ProductMapping = {
  id: 1, productName: 'Netflix Premium - 1 сар', woocommerceId: 102, parentId: 101, permalink: 'https://shop.example.mn/product/netflix-premium/?variation_id=102',
  lastSynced: '2026-11-23T08:00:00.000Z', lastSyncedPrice: '35000', lastSyncedRegularPrice: '35000', lastSyncedSalePrice: '', mappedBy: 'auto',
};
const exampleRun: SyncRun = {
  id: 'shop-sync.0b7c6a44-5a1e-4f0e-9d1c-2f7f9e2b1a10', status: 'finished', startedAt: '2026-11-23T08:00:00.000Z', finishedAt: '2026-11-23T08:00:02.000Z',
  total: 12, processed: 12, synced: 3, failed: 1, skipped: 8, batchCalls: 2, failures: [{ productName: 'HBO Max 1 сар', error: 'WooCommerce has no product 150 (woocommerce_rest_product_invalid_id)' }], error: null,
};
const exampleOrder: OrderSummary = {
  id: 120, number: '120', status: 'completed', currency: 'MNT', total: '35000', dateCreated: '2026-11-20T10:15:00',
  customer: { name: 'Бат-Эрдэнэ Болд', email: 'bat.erdene@example.mn', phone: '99112233' },
  items: [{ name: 'Netflix Premium - 1 сар', productId: 101, variationId: 102, quantity: 1, total: '35000', sku: 'NFX-PREM-1' }],
};

const category = 'WooCommerce';
const productNameParams = z.object({ productName: nameParam('productName') });

export const storeStatus = defineRoute({
  owner: 'shop-sync', method: 'GET', path: '/api/woocommerce/status', access: 'admin', category,
  reply: storeStatusSchema,
  summary: 'Whether the shop is configured and reachable, and how many products it has',
  example: { reply: { configured: true, connected: true, error: null, count: 8, storeUrl: 'https://shop.example.mn' } },
});

export const shopProducts = defineRoute({
  owner: 'shop-sync', method: 'GET', path: '/api/woocommerce/products', access: 'admin', category,
  reply: z.object({ success: z.boolean(), count: z.number().int(), data: z.array(shopItemSchema) }),
  summary: "The shop's products with their variations (count: products only)",
  example: { reply: { success: true, count: 1, data: [{ id: 108, parentId: 0, name: 'YouTube Premium 1 сар', type: 'simple', sku: 'YT-PREM-1M', status: 'publish', regularPrice: '19000', salePrice: '17000', price: '17000', permalink: 'https://shop.example.mn/product/youtube-premium-1/' }] } },
});

export const listMappings = defineRoute({
  owner: 'shop-sync', method: 'GET', path: '/api/woocommerce/mappings', access: 'admin', category,
  reply: z.object({ data: z.array(productMappingSchema) }),
  summary: 'Sheet product names mapped to shop product (or variation) ids',
  example: { reply: { data: [exampleMapping] } },
});

export const addMapping = defineRoute({
  owner: 'shop-sync', method: 'POST', path: '/api/woocommerce/mappings', access: 'admin', category,
  body: z.object({ productName: z.string().trim().min(1, 'productName is required').max(200), woocommerceId: shopId }).strict(),
  reply: z.object({ success: z.boolean(), data: productMappingSchema, replaced: z.boolean() }),
  summary: 'Map a sheet product name to a shop product or variation id (checked with the shop)',
  example: { body: { productName: 'Netflix Premium - 1 сар', woocommerceId: 102 }, reply: { success: true, data: { ...exampleMapping, mappedBy: 'manual', lastSynced: null, lastSyncedPrice: null, lastSyncedRegularPrice: null, lastSyncedSalePrice: null }, replaced: false } },
});

export const deleteMapping = defineRoute({
  owner: 'shop-sync', method: 'DELETE', path: '/api/woocommerce/mappings/:productName', access: 'admin', category,
  params: productNameParams,
  reply: successReply,
  summary: 'Remove one mapping (the shop product stays)',
  example: { params: { productName: 'Netflix Premium - 1 сар' }, reply: { success: true } },
});

export const syncAll = defineRoute({
  owner: 'shop-sync', method: 'POST', path: '/api/woocommerce/sync', access: 'admin', category,
  /** joined: a sync already pending or running was joined (one at a time), and this is its progress; false: this press started it. */
  reply: syncRunSchema.extend({ joined: z.boolean() }),
  summary: 'Push every mapped product whose sheet price differs from its last synced price, in batches of 100 (joining a sync already going, and saying so); answers when done or after 20 s with the progress',
  example: { reply: { ...exampleRun, joined: false } },
});

export const latestSyncRun = defineRoute({
  owner: 'shop-sync', method: 'GET', path: '/api/woocommerce/sync-runs/latest', access: 'admin', category,
  reply: z.object({ data: syncRunSchema.nullable() }),
  summary: 'The latest sync of all products: its progress while it runs, its counts after',
  example: { reply: { data: exampleRun } },
});

export const syncOne = defineRoute({
  owner: 'shop-sync', method: 'POST', path: '/api/woocommerce/sync/:productName', access: 'admin', category,
  params: productNameParams,
  reply: z.object({ success: z.boolean(), productName: z.string(), woocommerceId: z.number().int(), regularPrice: z.string(), salePrice: z.string() }),
  summary: "Push one mapped product's sheet price to the shop now (the reconciliation's fix)",
  example: { params: { productName: 'Netflix Premium - 1 сар' }, reply: { success: true, productName: 'Netflix Premium - 1 сар', woocommerceId: 102, regularPrice: '35000', salePrice: '' } },
});

export const autoMap = defineRoute({
  owner: 'shop-sync', method: 'POST', path: '/api/woocommerce/auto-map', access: 'admin', category,
  reply: z.object({ success: z.boolean(), mapped: z.number().int(), failed: z.number().int(), kept: z.number().int(), results: z.array(autoMapResultSchema) }),
  summary: "Map sheet rows to shop products and variations: by the sheet's woocommerceId, else SKU, else name; manual mappings are kept",
  example: { reply: { success: true, mapped: 1, failed: 0, kept: 0, results: [{ productName: 'Netflix Premium - 1 сар', woocommerceId: 102, matchedBy: 'id', outcome: 'mapped', message: 'Mapped to 102 by its WooCommerce id' }] } },
});

export const exportToSheets = defineRoute({
  owner: 'shop-sync', method: 'POST', path: '/api/woocommerce/export-to-sheets', access: 'admin', category,
  reply: z.object({ success: z.boolean(), productsExported: z.number().int(), totalRows: z.number().int(), sheetName: z.string() }),
  summary: "Write the shop's products and variations into the price sheet (a row found by woocommerceId, else SKU, else name is replaced; others are appended)",
  example: { reply: { success: true, productsExported: 21, totalRows: 24, sheetName: 'Sheet1' } },
});

export const reconciliation = defineRoute({
  owner: 'shop-sync', method: 'GET', path: '/api/woocommerce/reconciliation', access: 'admin', category,
  reply: z.object({
    checkedAt: z.string(),
    checked: z.number().int(),
    differences: z.array(priceDifferenceSchema),
    /** Mapped ids the shop no longer has: reported, never re-created. */
    missing: z.array(z.object({ productName: z.string(), woocommerceId: z.number().int() })),
    /** Mapped names the sheet no longer has. */
    notInSheet: z.array(z.string()),
  }),
  summary: 'Mapped products whose shop price differs from the sheet, and mapped products missing in the shop',
  example: { reply: { checkedAt: '2026-11-23T08:00:00.000Z', checked: 12, differences: [{ productName: 'Netflix Premium - 1 сар', woocommerceId: 102, sheetRegularPrice: '36000', sheetSalePrice: '', shopRegularPrice: '35000', shopSalePrice: '' }], missing: [], notInSheet: [] } },
});

export const recentPricePushes = defineRoute({
  owner: 'shop-sync', method: 'GET', path: '/api/woocommerce/price-pushes', access: 'admin', category,
  query: z.object({ limit: z.coerce.number().int().min(1).max(200).default(20) }),
  reply: z.object({ data: z.array(pricePushSchema) }),
  summary: 'What became of the latest price edits in the shop (newest first)',
  example: { query: { limit: 20 }, reply: { data: [{ eventId: '3f0c1d5e-8a61-4c52-9b1e-2f7d3c4b5a69', productName: 'Netflix Premium - 1 сар', revision: 3, regularPrice: '36000', salePrice: '', outcome: 'success', error: null, createdAt: '2026-11-23T08:00:00.000Z', decidedAt: '2026-11-23T08:00:00.150Z' }] } },
});

export const getOrder = defineRoute({
  owner: 'shop-sync', method: 'GET', path: '/api/woocommerce/order/:id', access: 'admin', category,
  params: z.object({ id: idParam }),
  reply: z.object({ success: z.boolean(), data: orderSummarySchema }),
  summary: 'One shop order by id',
  example: { params: { id: 120 }, reply: { success: true, data: exampleOrder } },
});

export const searchOrders = defineRoute({
  owner: 'shop-sync', method: 'POST', path: '/api/woocommerce/order/search', access: 'admin', category,
  body: z
    .object({ email: z.string().trim().email('email must be an e-mail address').optional(), phone: z.string().trim().regex(/^\+?[\d\s-]{6,20}$/, 'phone must be a phone number').optional() })
    .strict()
    .refine((body) => body.email || body.phone, 'email or phone is required'),
  reply: z.object({ success: z.boolean(), count: z.number().int(), data: z.array(orderSummarySchema) }),
  summary: "Shop orders whose billing e-mail or phone matches (newest first, at most 50)",
  example: { body: { email: 'bat.erdene@example.mn' }, reply: { success: true, count: 1, data: [exampleOrder] } },
});

/** How long pricing may wait for an edit's shop outcome (the toast's bounded wait). */
export const PRICE_PUSH_WAIT_MAX_MS = 10_000;

export const pricePushOutcome = defineRoute({
  owner: 'shop-sync', method: 'GET', path: '/internal/shop-sync/price-pushes/:eventId', access: 'internal', callers: ['pricing'], category,
  params: z.object({ eventId: z.string().uuid() }),
  query: z.object({ waitMs: z.coerce.number().int().min(0).max(PRICE_PUSH_WAIT_MAX_MS).default(0) }),
  reply: z.object({ outcome: z.enum(pricePushOutcomes), error: z.string().nullable() }),
  summary: "A price edit's outcome in the shop, waiting up to waitMs for it to be decided (pending when it was not)",
  example: { params: { eventId: '3f0c1d5e-8a61-4c52-9b1e-2f7d3c4b5a69' }, query: { waitMs: 4000 }, reply: { outcome: 'success', error: null } },
});

export const shopSyncRoutes = [
  storeStatus, shopProducts, listMappings, addMapping, deleteMapping, syncAll, latestSyncRun, syncOne,
  autoMap, exportToSheets, reconciliation, recentPricePushes, getOrder, searchOrders, pricePushOutcome,
];

