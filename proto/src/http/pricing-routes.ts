import { z } from 'zod';
import { defineRoute, nameParam } from './contract';
import { cacheStatusSchema, priceColumns, priceRowSchema, woocommerceSyncOutcomes } from './prices';

const exampleRow = {
  type: 'simple', parent: '', woocommerceId: '101', product: 'Netflix 1 month', description: 'NFX-1M',
  regularPrice: '25000', salePrice: '', status: 'publish', stockStatus: 'instock', attributes: '', categories: 'Streaming',
};

/** The short answer shape the chat platform reads. */
export const priceSummarySchema = z.object({
  product: z.string(),
  price: z.string(),
  regularPrice: z.string(),
  salePrice: z.string(),
  description: z.string(),
  status: z.string(),
  stockStatus: z.string(),
});
export type PriceSummary = z.infer<typeof priceSummarySchema>;
const exampleSummary: PriceSummary = {
  product: 'Netflix 1 month', price: '25000', regularPrice: '25000', salePrice: '', description: 'NFX-1M', status: 'publish', stockStatus: 'instock',
};

const productParams = z.object({ product: nameParam('product') });
const woocommerceSync = z.enum(woocommerceSyncOutcomes);

export const listPrices = defineRoute({
  owner: 'pricing',
  method: 'GET',
  path: '/api/prices',
  access: 'public',
  cacheable: true,
  query: z.object({ format: z.enum(['array', 'summary']).default('summary') }),
  reply: z.object({
    success: z.boolean(),
    data: z.union([z.array(priceSummarySchema), z.array(priceRowSchema)]),
    count: z.number().int(),
    lastUpdated: z.string(),
    stale: z.boolean(),
  }),
  summary: 'The price list: short answers (summary) or whole spreadsheet rows (array)',
  category: 'Prices',
  example: { query: { format: 'summary' }, reply: { success: true, data: [exampleSummary], count: 1, lastUpdated: '2026-11-23T08:00:00.000Z', stale: false } },
});

export const getPrice = defineRoute({
  owner: 'pricing',
  method: 'GET',
  path: '/api/prices/:product',
  access: 'public',
  cacheable: true,
  params: productParams,
  reply: z.object({ success: z.boolean(), data: priceSummarySchema, stale: z.boolean() }),
  summary: 'The price of one product, found by name (case and spaces do not matter)',
  category: 'Prices',
  example: { params: { product: 'Netflix 1 month' }, reply: { success: true, data: exampleSummary, stale: false } },
});

/** Editing one product by name: any subset of the row's fields. */
export const productEditSchema = priceRowSchema.partial().strict().refine((edit) => Object.keys(edit).length > 0, 'at least one field is required');

export const updatePrice = defineRoute({
  owner: 'pricing',
  method: 'POST',
  path: '/api/prices/:product',
  access: 'admin',
  params: productParams,
  body: productEditSchema,
  reply: z.object({ success: z.boolean(), data: priceSummarySchema, woocommerceSync }),
  summary: 'Change fields of one product row in the spreadsheet',
  category: 'Prices',
  example: { params: { product: 'Netflix 1 month' }, body: { salePrice: '22000' }, reply: { success: true, data: { ...exampleSummary, price: '22000', salePrice: '22000' }, woocommerceSync: 'not_configured' } },
});

/** The whole edited row; `originalProduct` names the row when the product name itself was edited. */
export const sheetRowUpdateSchema = priceRowSchema.extend({ originalProduct: z.string().trim().min(1).optional() }).strict();
/** The docs sample's single-cell form. */
export const sheetCellUpdateSchema = z
  .object({
    rowIndex: z.number().int().min(0),
    columnIndex: z.number().int().min(0).max(priceColumns.length - 1),
    value: z.union([z.string(), z.number()]).transform(String),
  })
  .strict();

export const updateSheetRow = defineRoute({
  owner: 'pricing',
  method: 'POST',
  path: '/api/sheets/update',
  access: 'admin',
  body: z.union([sheetCellUpdateSchema, sheetRowUpdateSchema]),
  reply: z.object({ success: z.boolean(), data: priceRowSchema, woocommerceSync }),
  summary: 'Write an edited row (or one cell) to the spreadsheet and tell the shop',
  category: 'Google Sheets',
  example: { body: { ...exampleRow, regularPrice: '26000', originalProduct: 'Netflix 1 month' }, reply: { success: true, data: { ...exampleRow, regularPrice: '26000' }, woocommerceSync: 'not_configured' } },
});

export const getCacheStatus = defineRoute({
  owner: 'pricing',
  method: 'GET',
  path: '/api/cache/status',
  access: 'admin',
  reply: cacheStatusSchema,
  summary: 'Whether the price list is cached, how old the copy is and its lifetime',
  category: 'Cache',
  example: { reply: { cached: true, ageSeconds: 42, ttlSeconds: 300 } },
});

export const invalidateCache = defineRoute({
  owner: 'pricing',
  method: 'POST',
  path: '/api/cache/invalidate',
  access: 'admin',
  reply: z.object({ success: z.boolean(), message: z.string(), count: z.number().int() }),
  summary: 'Clear the price cache and read the spreadsheet at once',
  category: 'Cache',
  example: { reply: { success: true, message: 'Cache cleared; fresh data loaded from Google Sheets', count: 42 } },
});

/** The shop's catalogue written into the sheet (shop-sync's export): rows found by woocommerceId, else SKU, else name are replaced, others appended. */
export const mergeSheetRows = defineRoute({
  owner: 'pricing',
  method: 'POST',
  path: '/internal/pricing/sheet/rows',
  access: 'internal',
  callers: ['shop-sync'],
  body: z.object({ rows: z.array(priceRowSchema).min(1).max(5000) }).strict(),
  reply: z.object({ updated: z.number().int(), appended: z.number().int(), totalRows: z.number().int(), sheetName: z.string() }),
  summary: 'Merge rows into the price sheet by woocommerceId, else SKU, else name (used by the shop export)',
  category: 'Google Sheets',
  example: { body: { rows: [exampleRow] }, reply: { updated: 1, appended: 0, totalRows: 15, sheetName: 'Sheet1' } },
});

export const listedProductPrice = defineRoute({
  owner: 'pricing',
  method: 'GET',
  path: '/internal/pricing/prices/:product',
  access: 'internal',
  callers: ['payments'],
  params: productParams,
  reply: z.object({ product: z.string(), price: z.number().int(), stale: z.boolean() }),
  summary: "A product's price as customers see it (the sale price when the sheet has one), found by name, in whole tugrik; 404 when the sheet has no such product or no price for it",
  category: 'Prices',
  example: { params: { product: 'PUBG Mobile UC - 660 UC' }, reply: { product: 'PUBG Mobile UC - 660 UC', price: 38000, stale: false } },
});

export const pricingRoutes = [listPrices, getPrice, updatePrice, updateSheetRow, getCacheStatus, invalidateCache, mergeSheetRows, listedProductPrice];
