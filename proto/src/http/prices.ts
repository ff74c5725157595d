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

export const woocommerceSyncOutcomes = ['success', 'no_mapping', 'failed', 'not_configured'] as const;
export type WoocommerceSyncOutcome = (typeof woocommerceSyncOutcomes)[number];

export const cacheStatusSchema = z.object({
  cached: z.boolean(),
  ageSeconds: z.number().nullable(),
  ttlSeconds: z.number(),
});
export type CacheStatus = z.infer<typeof cacheStatusSchema>;
