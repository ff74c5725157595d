/** One card as the page gave it: each configured field's text, the link, and the card's whole text. */
export interface RawCard {
  fields: Record<string, string | null>;
  link: string | null;
  text: string;
}

/** A card read into a product's columns (scraped_products), with the key it is found again by. */
export interface ProductFields {
  offerKey: string;
  gameName: string;
  productName: string;
  variationValue: string | null;
  attributeName: string | null;
  priceUsd: number;
  sourceUrl: string | null;
  sellerName: string | null;
  sellerLevel: number | null;
  sellerLocation: string | null;
  orderSuccessRate: number | null;
  totalSales: number | null;
  ratingDescription: number | null;
  ratingService: number | null;
  ratingSpeed: number | null;
  rawText: string;
}

const MAX_TEXT = 500;
const MAX_RAW_TEXT = 4_000;

/** A number as sites print it: "$1,234.50", "99.5%", "12,345 sold"; null when there is none. */
export function numberIn(text: string | null | undefined): number | null {
  const match = text?.replace(/,/g, '').match(/-?\d+(\.\d+)?/);
  if (!match) return null;
  const value = Number(match[0]);
  return Number.isFinite(value) ? value : null;
}

const wholeIn = (text: string | null | undefined, max: number): number | null => {
  const value = numberIn(text);
  return value === null || value < 0 || value > max ? null : Math.round(value);
};
const decimalIn = (text: string | null | undefined, max: number): number | null => {
  const value = numberIn(text);
  return value === null || value < 0 || value > max ? null : Math.round(value * 100) / 100;
};
const textIn = (text: string | null | undefined): string | null => {
  const trimmed = text?.trim();
  return trimmed ? trimmed.slice(0, MAX_TEXT) : null;
};

/**
 * The product a card describes, or null when it lacks what a product needs (its game, its name and
 * a price): such a card is counted as not read, never stored half.
 */
export function productOf(card: RawCard): ProductFields | null {
  const { fields } = card;
  const gameName = textIn(fields.gameName);
  const productName = textIn(fields.productName);
  const price = numberIn(fields.priceUsd);
  if (!gameName || !productName || price === null || price <= 0 || price >= 1e10) return null;
  const priceUsd = Math.round(price * 100) / 100;
  const variationValue = textIn(fields.variationValue);
  const sellerName = textIn(fields.sellerName);
  const sourceUrl = card.link && /^https?:\/\//.test(card.link) ? card.link.slice(0, 2_000) : null;
  return {
    offerKey: sourceUrl ?? [gameName, productName, variationValue ?? '', sellerName ?? ''].join(' | '),
    gameName,
    productName,
    variationValue,
    attributeName: textIn(fields.attributeName),
    priceUsd,
    sourceUrl,
    sellerName,
    sellerLevel: wholeIn(fields.sellerLevel, 1_000_000),
    sellerLocation: textIn(fields.sellerLocation),
    orderSuccessRate: decimalIn(fields.orderSuccessRate, 100),
    totalSales: wholeIn(fields.totalSales, 2_000_000_000),
    ratingDescription: decimalIn(fields.ratingDescription, 99),
    ratingService: decimalIn(fields.ratingService, 99),
    ratingSpeed: decimalIn(fields.ratingSpeed, 99),
    rawText: card.text.slice(0, MAX_RAW_TEXT),
  };
}
