import { productKey, type PriceRow, type ShopItem } from '@bo/proto';
import { pricesOfRow } from './prices';
import type { MappedProduct } from './sync-plan';

/**
 * Compares each mapped product's shop price with the sheet. A mapped id the shop no longer has is
 * reported as missing (never re-created); a mapped name the sheet no longer has is listed apart.
 */
export function reconcile(mappings: MappedProduct[], rows: PriceRow[], catalogue: ShopItem[]) {
  const items = new Map(catalogue.map((item) => [item.id, item]));
  const sheet = new Map(rows.map((row) => [productKey(row.product), row]));
  const differences = [];
  const missing = [];
  const notInSheet = [];
  for (const mapping of mappings) {
    const item = items.get(mapping.woocommerceId);
    if (!item) {
      missing.push({ productName: mapping.productName, woocommerceId: mapping.woocommerceId });
      continue;
    }
    const row = sheet.get(productKey(mapping.productName));
    if (!row) {
      notInSheet.push(mapping.productName);
      continue;
    }
    const wanted = pricesOfRow(row);
    const sheetRegularPrice = 'prices' in wanted ? wanted.prices.regular_price : row.regularPrice;
    const sheetSalePrice = 'prices' in wanted ? wanted.prices.sale_price : row.salePrice;
    if (sheetRegularPrice !== item.regularPrice || sheetSalePrice !== item.salePrice) {
      differences.push({ productName: mapping.productName, woocommerceId: item.id, sheetRegularPrice, sheetSalePrice, shopRegularPrice: item.regularPrice, shopSalePrice: item.salePrice });
    }
  }
  return { checked: mappings.length, differences, missing, notInSheet };
}
