import { productKey, type AutoMapResult, type PriceRow, type ShopItem } from '@bo/proto';
import { normalisedName } from './catalogue';

export interface ExistingMapping {
  productName: string;
  woocommerceId: number;
  mappedBy: 'manual' | 'auto';
}

export interface MappingWrite {
  productName: string;
  item: ShopItem;
}

/**
 * Matches sheet rows to shop items: the sheet's woocommerceId when the shop has it, else the SKU
 * (the sheet's description column), else the normalised name when exactly one item has it.
 * A variable product's own row is left out: its prices live on its variations. A manual mapping
 * that points elsewhere is kept and said so; an automatic one is updated.
 */
export function planAutoMap(rows: PriceRow[], catalogue: ShopItem[], existing: ExistingMapping[]): { results: AutoMapResult[]; writes: MappingWrite[] } {
  const byId = new Map(catalogue.map((item) => [item.id, item]));
  const bySku = new Map<string, ShopItem>();
  for (const item of catalogue) if (item.sku.trim()) bySku.set(item.sku.trim().toLowerCase(), item);
  const byName = new Map<string, ShopItem[]>();
  for (const item of catalogue) byName.set(normalisedName(item.name), [...(byName.get(normalisedName(item.name)) ?? []), item]);
  const current = new Map(existing.map((mapping) => [productKey(mapping.productName), mapping]));

  const results: AutoMapResult[] = [];
  const writes: MappingWrite[] = [];
  for (const row of rows) {
    if (row.type.trim().toLowerCase() === 'variable') continue;
    const sheetId = /^\d+$/.test(row.woocommerceId.trim()) ? Number(row.woocommerceId.trim()) : null;
    const sku = row.description.trim().toLowerCase();
    const named = byName.get(normalisedName(row.product)) ?? [];
    const match: [ShopItem, AutoMapResult['matchedBy']] | null =
      sheetId !== null && byId.has(sheetId) ? [byId.get(sheetId)!, 'id']
      : sku && bySku.has(sku) ? [bySku.get(sku)!, 'sku']
      : named.length === 1 ? [named[0], 'name']
      : null;
    if (!match) {
      const reasons = [
        sheetId !== null ? `WooCommerce has no product ${sheetId}` : null,
        sku ? `no SKU "${row.description.trim()}"` : null,
        named.length > 1 ? `${named.length} products are named like it` : 'no product of that name',
      ].filter(Boolean);
      results.push({ productName: row.product, woocommerceId: null, matchedBy: null, outcome: 'not_found', message: `Not found in the shop: ${reasons.join('; ')}` });
      continue;
    }
    const [item, matchedBy] = match;
    const how = { id: 'its WooCommerce id', sku: `its SKU ${item.sku}`, name: 'its name' }[matchedBy!];
    const mapping = current.get(productKey(row.product));
    if (mapping?.woocommerceId === item.id) {
      results.push({ productName: row.product, woocommerceId: item.id, matchedBy, outcome: 'unchanged', message: `Already mapped to ${item.id}` });
    } else if (mapping?.mappedBy === 'manual') {
      results.push({ productName: row.product, woocommerceId: mapping.woocommerceId, matchedBy, outcome: 'kept_manual', message: `Kept the manual mapping to ${mapping.woocommerceId}; by ${how} it would be ${item.id}` });
    } else {
      writes.push({ productName: row.product, item });
      results.push({ productName: row.product, woocommerceId: item.id, matchedBy, outcome: 'mapped', message: `Mapped to ${item.id} by ${how}${mapping ? ` (was ${mapping.woocommerceId})` : ''}` });
    }
  }
  return { results, writes };
}
