import type { ComparisonRow } from '@bo/proto';
import { shopPriceMnt, type PricingRules } from '@bo/proto/scraper-prices';

/** A scraped variation as the comparison reads it. */
export interface ComparedProduct {
  id: number;
  gameName: string;
  productName: string;
  variationValue: string | null;
  marketplaceId: number;
  marketplaceName: string;
  priceUsd: number;
  sellerName: string | null;
}

/**
 * The Comparison tab (document 2 §2.3): per game, each product variation's offers across the
 * marketplaces in the order given (by product, variation and price), with the price in MNT as the
 * settings make it; the lowest price of each variation is marked cheapest (a tie marks each).
 */
export function compareByGame(products: readonly ComparedProduct[], pricing: PricingRules): { gameName: string; rows: ComparisonRow[] }[] {
  const lowest = new Map<string, number>();
  const variationOf = (product: ComparedProduct) => JSON.stringify([product.gameName, product.productName, product.variationValue]);
  for (const product of products) lowest.set(variationOf(product), Math.min(lowest.get(variationOf(product)) ?? Infinity, product.priceUsd));
  const games = new Map<string, ComparisonRow[]>();
  for (const product of products) {
    const rows = games.get(product.gameName) ?? [];
    rows.push({
      productId: product.id,
      productName: product.productName,
      variationValue: product.variationValue,
      marketplaceId: product.marketplaceId,
      marketplaceName: product.marketplaceName,
      priceUsd: product.priceUsd,
      priceMnt: shopPriceMnt(product.priceUsd, pricing),
      sellerName: product.sellerName,
      cheapest: product.priceUsd === lowest.get(variationOf(product)),
    });
    games.set(product.gameName, rows);
  }
  return [...games].map(([gameName, rows]) => ({ gameName, rows }));
}
