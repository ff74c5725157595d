import type { ShopItem } from '@bo/proto';
import type { WooProduct, WooVariation } from '../clients/woocommerce';

/** A variation has no name of its own in the REST API: the shop shows "<product> - <options>". */
export function variationName(parent: Pick<WooProduct, 'name'>, variation: Pick<WooVariation, 'attributes'>): string {
  const options = variation.attributes.map((attribute) => attribute.option).filter(Boolean);
  return options.length ? `${parent.name} - ${options.join(', ')}` : parent.name;
}

export function productItem(product: WooProduct): ShopItem {
  return {
    id: product.id, parentId: 0, name: product.name, type: product.type, sku: product.sku, status: product.status,
    regularPrice: product.regular_price, salePrice: product.sale_price, price: product.price, permalink: product.permalink,
  };
}

export function variationItem(parent: WooProduct, variation: WooVariation): ShopItem {
  return {
    id: variation.id, parentId: parent.id, name: variationName(parent, variation), type: 'variation', sku: variation.sku, status: variation.status,
    regularPrice: variation.regular_price, salePrice: variation.sale_price, price: variation.price, permalink: variation.permalink,
  };
}

/** Products in the shop's order, each variable product followed by its variations. */
export function catalogueItems(products: WooProduct[], variationsOf: Map<number, WooVariation[]>): ShopItem[] {
  return products.flatMap((product) => [productItem(product), ...(variationsOf.get(product.id) ?? []).map((variation) => variationItem(product, variation))]);
}

/**
 * Names as auto-map compares them: Unicode-normalised, lower case, dashes and punctuation as
 * spaces, runs of spaces collapsed ("Netflix Premium – 1 сар" equals "netflix premium 1 сар").
 */
export function normalisedName(name: string): string {
  return name.normalize('NFKC').toLocaleLowerCase().replace(/[\p{P}\p{S}]+/gu, ' ').replace(/\s+/g, ' ').trim();
}
