import type { PriceRow } from '@bo/proto';
import type { WooProduct, WooVariation } from '../clients/woocommerce';
import { variationName } from './catalogue';

/** The shop's catalogue in the sheet's columns (document 1's array format), for the export. */
export function sheetRowsOf(products: WooProduct[], variationsOf: Map<number, WooVariation[]>): PriceRow[] {
  return products.flatMap((product) => {
    const categories = product.categories.map((category) => category.name).join(', ');
    const own: PriceRow = {
      type: product.type,
      parent: '',
      woocommerceId: String(product.id),
      product: product.name,
      description: product.sku,
      regularPrice: product.type === 'variable' ? '' : product.regular_price,
      salePrice: product.type === 'variable' ? '' : product.sale_price,
      status: product.status,
      stockStatus: product.stock_status,
      attributes: product.attributes.map((attribute) => `${attribute.name}: ${(attribute.options ?? []).join(' | ')}`).join('; '),
      categories,
    };
    const variations = (variationsOf.get(product.id) ?? []).map((variation): PriceRow => ({
      type: 'variation',
      parent: String(product.id),
      woocommerceId: String(variation.id),
      product: variationName(product, variation),
      description: variation.sku,
      regularPrice: variation.regular_price,
      salePrice: variation.sale_price,
      status: variation.status,
      stockStatus: variation.stock_status,
      attributes: variation.attributes.map((attribute) => `${attribute.name}: ${attribute.option}`).join('; '),
      categories,
    }));
    return [own, ...variations];
  });
}
