import { formatTugrik, type OutgoingText } from '@bo/proto';
import type { ListedProduct } from '../clients/price-list';

/**
 * What the chat says on its own (issue 21), in Mongolian then English as the rest of the chat.
 * The AI's answers are its own; these are the answers made without it.
 */
export const chatTexts = {
  /** Sent at once when the AI is too slow for ManyChat; the whole answer follows through sendContent. */
  holding: 'Таны асуултыг хүлээн авлаа, хариуг удахгүй илгээнэ. / Got your question: the answer follows in a moment.',
  /** When no AI provider answered: a person takes over. */
  noAnswer: 'Уучлаарай, одоогоор хариулж чадсангүй. Манай ажилтан удахгүй хариулна. / Sorry, I cannot answer right now: someone from our team will reply soon.',
  outOfStock: 'Одоогоор дууссан / Out of stock',
  pricesHeading: 'Үнийн мэдээлэл / Prices:',
  /** A purchase's invoice could not be made (payments or QPay away): nothing was charged. */
  invoiceFailed: 'Уучлаарай, нэхэмжлэх үүсгэж чадсангүй. Хэсэг хугацааны дараа дахин оролдоно уу. / Sorry, the invoice could not be made right now: please try again in a minute.',
  moreProducts: (count: number) => `…болон өөр ${count} бүтээгдэхүүн / …and ${count} more`,
} as const;

/** At most this many products in one price answer (ManyChat takes 10 messages; one is the heading). */
export const MAX_PRICE_ANSWERS = 8;

function priceLine(product: ListedProduct): string {
  const sale = product.regularPrice !== null ? ` (${formatTugrik(product.regularPrice)}-с хямдарсан / was ${formatTugrik(product.regularPrice)})` : '';
  const stock = product.inStock ? '' : ` — ${chatTexts.outOfStock}`;
  return `${product.name} — ${formatTugrik(product.price)}${sale}${stock}`;
}

/**
 * The price answer: each product with its price in ₮ (the sale price when set, the regular one
 * beside it), and a Buy button under each one in stock (`buyUrl`), one message a product so each
 * keeps its own button.
 */
export function priceAnswer(products: ListedProduct[], buyUrl: (product: ListedProduct) => string | null): OutgoingText[] {
  const shown = products.slice(0, MAX_PRICE_ANSWERS);
  const messages = shown.map((product): OutgoingText => {
    const url = product.inStock ? buyUrl(product) : null;
    return { text: priceLine(product), ...(url ? { buttons: [{ type: 'url', caption: 'Авах / Buy', url, webview_size: 'full' }] } : {}) };
  });
  if (products.length > shown.length) messages.push({ text: chatTexts.moreProducts(products.length - shown.length) });
  return products.length > 1 ? [{ text: chatTexts.pricesHeading }, ...messages] : messages;
}

/** The answer to "buy <product>": the invoice's product and amount, and its payment button. */
export function purchaseAnswer(invoice: { description: string; amount: number; paymentUrl: string }): OutgoingText[] {
  return [{
    text: `${invoice.description} — ${formatTugrik(invoice.amount)}. Төлөхийн тулд доорх товчийг дарна уу. / Tap the button below to pay.`,
    buttons: [{ type: 'url', caption: 'Төлөх / Pay', url: invoice.paymentUrl, webview_size: 'full' }],
  }];
}
