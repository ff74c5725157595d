import type { PriceRow } from '@bo/proto';
import type { WooPrices } from '../clients/woocommerce';

/**
 * A sheet cell as WooCommerce takes a price: a decimal string with '.' ("45000", "9.99").
 * Thousands separators and spaces people type ("45,000", "45 000") are dropped; anything else is
 * refused rather than guessed at.
 */
export function shopPrice(cell: string): string | null {
  const text = cell.trim().replace(/[\s\u00a0]/g, '');
  if (text === '') return '';
  const plain = /^\d{1,3}(,\d{3})+(\.\d+)?$/.test(text) ? text.replaceAll(',', '') : text;
  return /^\d+(\.\d+)?$/.test(plain) ? plain : null;
}

/** The prices a sheet row asks the shop for, or why they cannot be sent. */
export function pricesOfRow(row: Pick<PriceRow, 'regularPrice' | 'salePrice'>): { prices: WooPrices } | { error: string } {
  const regular = shopPrice(row.regularPrice);
  const sale = shopPrice(row.salePrice);
  if (regular === null) return { error: `The sheet's regular price "${row.regularPrice}" is not a number` };
  if (regular === '') return { error: 'The sheet has no regular price for it' };
  if (sale === null) return { error: `The sheet's sale price "${row.salePrice}" is not a number` };
  return { prices: { regular_price: regular, sale_price: sale } };
}

/** The price a customer pays, as WooCommerce derives it. */
export const payablePrice = (prices: WooPrices): string => (prices.sale_price !== '' ? prices.sale_price : prices.regular_price);
