import { z } from 'zod';

/** One spreadsheet row in document 1's array format (columns A..K of Sheet1). */
export const priceRowSchema = z.object({
  type: z.string(),
  parent: z.string(),
  woocommerceId: z.string(),
  product: z.string(),
  description: z.string(),
  regularPrice: z.string(),
  salePrice: z.string(),
  status: z.string(),
  stockStatus: z.string(),
  attributes: z.string(),
  categories: z.string(),
});
export type PriceRow = z.infer<typeof priceRowSchema>;

/** Column order in the sheet; the header row carries these names. */
export const priceColumns = [
  'type', 'parent', 'woocommerceId', 'product', 'description', 'regularPrice',
  'salePrice', 'status', 'stockStatus', 'attributes', 'categories',
] as const satisfies readonly (keyof PriceRow)[];

/** Product names are matched as people type them: case and surrounding spaces do not matter (pricing and shop-sync alike). */
export function productKey(name: string): string {
  return name.trim().toLocaleLowerCase();
}

/** The row of a product, matched by productKey. */
export function findRowByProduct<R extends { product: string }>(rows: readonly R[], product: string): R | undefined {
  const key = productKey(product);
  return rows.find((row) => productKey(row.product) === key);
}

/** The price a customer pays: the sale price when one is set, else the regular price. */
export function effectivePrice(row: Pick<PriceRow, 'salePrice' | 'regularPrice'>): string {
  return row.salePrice.trim() !== '' ? row.salePrice : row.regularPrice;
}

/**
 * The effective price in whole tugrik, as an invoice charges it; null when the sheet's cell is
 * empty or not a whole amount ("25000", "25,000" and "25000.00" read as 25000).
 */
export function chargeablePrice(row: Pick<PriceRow, 'salePrice' | 'regularPrice'>): number | null {
  const text = effectivePrice(row).replace(/[\s,]/g, '');
  if (!/^\d+(\.0+)?$/.test(text)) return null;
  const price = Number(text);
  return price > 0 && Number.isSafeInteger(price) ? price : null;
}

export const woocommerceSyncOutcomes = ['success', 'no_mapping', 'failed', 'not_configured'] as const;
export type WoocommerceSyncOutcome = (typeof woocommerceSyncOutcomes)[number];

export const cacheStatusSchema = z.object({
  cached: z.boolean(),
  ageSeconds: z.number().nullable(),
  ttlSeconds: z.number(),
});
export type CacheStatus = z.infer<typeof cacheStatusSchema>;
