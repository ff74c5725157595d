/**
 * The CSS class names the site renders. The 'default' layout is the documented one; 'renamed'
 * imitates a site redesign (hashed class names), so a scraper using the default selectors finds nothing.
 */
export type LayoutName = 'default' | 'renamed';

export interface LayoutClasses {
  card: string;
  game: string;
  title: string;
  link: string;
  attributeName: string;
  variation: string;
  price: string;
  currency: string;
  sellerName: string;
  sellerLevel: string;
  sellerLocation: string;
  successRate: string;
  totalSales: string;
  ratingDescription: string;
  ratingService: string;
  ratingSpeed: string;
  pagination: string;
  next: string;
  pageLink: string;
}

export const LAYOUTS: Record<LayoutName, LayoutClasses> = {
  default: {
    card: 'offer-card',
    game: 'offer-game',
    title: 'offer-title',
    link: 'offer-link',
    attributeName: 'offer-attribute-name',
    variation: 'offer-variation',
    price: 'offer-price-amount',
    currency: 'offer-price-currency',
    sellerName: 'seller-name',
    sellerLevel: 'seller-level',
    sellerLocation: 'seller-location',
    successRate: 'seller-success-rate',
    totalSales: 'seller-total-sales',
    ratingDescription: 'rating-description',
    ratingService: 'rating-service',
    ratingSpeed: 'rating-speed',
    pagination: 'pagination',
    next: 'pagination-next',
    pageLink: 'pagination-page',
  },
  renamed: {
    card: 'sc-1x9f2a',
    game: 'sc-7hq0b1',
    title: 'sc-k3m8zd',
    link: 'sc-p02lqa',
    attributeName: 'sc-u5t7ce',
    variation: 'sc-v9w1ee',
    price: 'sc-a4r6pp',
    currency: 'sc-c0y3rr',
    sellerName: 'sc-s1n4mm',
    sellerLevel: 'sc-l8v2ll',
    sellerLocation: 'sc-g6o9cc',
    successRate: 'sc-r3t5ss',
    totalSales: 'sc-t7l0tt',
    ratingDescription: 'sc-d2e4rd',
    ratingService: 'sc-e5s8rs',
    ratingSpeed: 'sc-f9p1rp',
    pagination: 'sc-n0v7pg',
    next: 'sc-x4n2nx',
    pageLink: 'sc-q6g3pl',
  },
};

const css = LAYOUTS.default;

/**
 * The scrapeConfig a scraper uses for this site (stored on the marketplace record). Field values are
 * the card's text; numbers may carry "%" or thousands separators ("12,345"). The price is filled in
 * by a script after load, so wait for `waitForSelector` (a browser is needed; plain HTTP sees no price).
 * `sourceUrl` is the card link's href (relative to the page).
 */
export const DEFAULT_SCRAPE_CONFIG = {
  renderJavaScript: true,
  waitForSelector: `.${css.card} .${css.price}:not(:empty)`,
  cardSelector: `.${css.card}`,
  fields: {
    gameName: `.${css.game}`,
    productName: `.${css.title}`,
    attributeName: `.${css.attributeName}`,
    variationValue: `.${css.variation}`,
    priceUsd: `.${css.price}`,
    sellerName: `.${css.sellerName}`,
    sellerLevel: `.${css.sellerLevel}`,
    sellerLocation: `.${css.sellerLocation}`,
    orderSuccessRate: `.${css.successRate}`,
    totalSales: `.${css.totalSales}`,
    ratingDescription: `.${css.ratingDescription}`,
    ratingService: `.${css.ratingService}`,
    ratingSpeed: `.${css.ratingSpeed}`,
  },
  link: { selector: `.${css.link}`, attribute: 'href' },
  pagination: {
    param: 'page',
    firstPage: 1,
    nextSelector: `.${css.pagination} .${css.next}`,
    /** The pagination element carries the page count in this attribute. */
    totalPagesSelector: `.${css.pagination}`,
    totalPagesAttribute: 'data-total-pages',
  },
} as const;
