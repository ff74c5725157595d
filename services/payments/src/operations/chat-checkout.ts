import { conflict, notFound } from '@bo/platform';
import type { InvoiceOrder } from '@bo/proto';
import type { PriceLists } from '../clients/price-lists';
import { chatProduct, priceMismatch } from '../domain/invoices';

/** A chat order as the server prices it: what the invoice says and charges. */
export interface PricedOrder {
  order: InvoiceOrder;
  description: string;
  amount: number;
}

/**
 * Prices a chat payment request (issue 18 §1): a streaming code at streaming-keys' listed price,
 * any other product at the sheet's. The request's amount is only checked, never charged: another
 * amount is a 409 naming the price, an unlisted product a 404; nothing is made at QPay for either.
 */
export async function priceChatOrder(prices: PriceLists, request: { invoiceCode: string; amount: number; email: string | null }): Promise<PricedOrder> {
  const product = chatProduct(request.invoiceCode);
  const listed = product.kind === 'streaming' ? await prices.streaming(product.serviceCode, product.months) : await prices.product(product.productName);
  if (!listed) {
    throw notFound(product.kind === 'streaming' ? `${product.name} (${request.invoiceCode}) has no listed price: it cannot be sold` : `"${product.productName}" is not in the price list`);
  }
  if (listed.price !== request.amount) throw conflict(priceMismatch(listed.name, listed.price, request.amount), { product: listed.name, listedPrice: listed.price });
  const order: InvoiceOrder =
    product.kind === 'streaming'
      ? { kind: 'streaming', serviceCode: product.serviceCode, months: product.months, email: request.email, streamingInvoiceId: null }
      : { kind: 'custom', productName: listed.name };
  return { order, description: listed.name, amount: listed.price };
}
