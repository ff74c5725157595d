import type { WooCommerceClient, WooProduct, WooVariation } from '../clients/woocommerce';

/** Variable products whose variations are read at the same time. */
const PARALLEL_VARIATION_READS = 4;

export interface ShopCatalogue {
  products: WooProduct[];
  variationsOf: Map<number, WooVariation[]>;
}

/** Every product of the shop, and the variations of each variable product. */
export async function readShopCatalogue(shop: WooCommerceClient): Promise<ShopCatalogue> {
  const products = await shop.listProducts();
  const variable = products.filter((product) => product.type === 'variable');
  const variationsOf = new Map<number, WooVariation[]>();
  for (let start = 0; start < variable.length; start += PARALLEL_VARIATION_READS) {
    const slice = variable.slice(start, start + PARALLEL_VARIATION_READS);
    const lists = await Promise.all(slice.map((product) => shop.listVariations(product.id)));
    slice.forEach((product, index) => variationsOf.set(product.id, lists[index]));
  }
  return { products, variationsOf };
}
