import { productKey, type PriceRow } from '@bo/proto';
import { chunks, groupBy } from '@bo/platform/batches';
import type { WooPrices } from '../clients/woocommerce';
import { pricesOfRow } from './prices';

export interface MappedProduct {
  id: number;
  productName: string;
  woocommerceId: number;
  parentId: number | null;
  lastSyncedRegularPrice: string | null;
  lastSyncedSalePrice: string | null;
}

export interface PlannedUpdate {
  mapping: MappedProduct;
  prices: WooPrices;
}

export interface SyncPlan {
  updates: PlannedUpdate[];
  /** Already at the sheet's price, or no longer in the sheet. */
  skipped: { productName: string; reason: string }[];
  /** Sheet prices the shop cannot take. */
  invalid: { productName: string; error: string }[];
}

/** Which mapped products need a push: those whose sheet price differs from what was last synced. */
export function planSync(mappings: MappedProduct[], rows: PriceRow[]): SyncPlan {
  const sheet = new Map(rows.map((row) => [productKey(row.product), row]));
  const plan: SyncPlan = { updates: [], skipped: [], invalid: [] };
  for (const mapping of mappings) {
    const row = sheet.get(productKey(mapping.productName));
    if (!row) {
      plan.skipped.push({ productName: mapping.productName, reason: 'not in the sheet' });
      continue;
    }
    const wanted = pricesOfRow(row);
    if ('error' in wanted) {
      plan.invalid.push({ productName: mapping.productName, error: wanted.error });
      continue;
    }
    const { regular_price, sale_price } = wanted.prices;
    if (regular_price === mapping.lastSyncedRegularPrice && sale_price === mapping.lastSyncedSalePrice) {
      plan.skipped.push({ productName: mapping.productName, reason: 'already at the sheet price' });
      continue;
    }
    plan.updates.push({ mapping, prices: wanted.prices });
  }
  return plan;
}

/**
 * Batch requests for the updates: products together, each variable product's variations
 * together (WooCommerce batches variations per parent), at most `size` items each.
 */
export function batchesOf(updates: PlannedUpdate[], size: number): { parentId: number | null; updates: PlannedUpdate[] }[] {
  return [...groupBy(updates, (update) => update.mapping.parentId)].flatMap(([parentId, group]) => chunks(group, size).map((part) => ({ parentId, updates: part })));
}
