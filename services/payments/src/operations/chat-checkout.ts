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
  const priced = await priceChatProduct(prices, request.invoiceCode, request.email);
  if (priced.amount !== request.amount) throw conflict(priceMismatch(priced.description, priced.amount, request.amount), { product: priced.description, listedPrice: priced.amount });
  return priced;
}

/** A product of the chat (a streaming code or a price-list name) at its listed price; a 404 when it has none. */
export async function priceChatProduct(prices: PriceLists, invoiceCode: string, email: string | null): Promise<PricedOrder> {
  const product = chatProduct(invoiceCode);
  const listed = product.kind === 'streaming' ? await prices.streaming(product.serviceCode, product.months) : await prices.product(product.productName);
  if (!listed) {
    throw notFound(product.kind === 'streaming' ? `${product.name} (${invoiceCode}) has no listed price: it cannot be sold` : `"${product.productName}" is not in the price list`);
  }
  const order: InvoiceOrder =
    product.kind === 'streaming'
      ? { kind: 'streaming', serviceCode: product.serviceCode, months: product.months, email, streamingInvoiceId: null }
      : { kind: 'custom', productName: listed.name };
  return { order, description: listed.name, amount: listed.price };
}
