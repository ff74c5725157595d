import { z } from 'zod';
import { defineRoute } from './contract';
import { idField, idParam } from './fields';

/**
 * Scraped products in the online shop (document 2 §2.3, §7.3; issue 22). The scraper never calls
 * WooCommerce: shop-sync owns the shop and offers the scraper these internal commands, and the
 * scraper keeps which of its variations are published where (`product_mappings`).
 *
 * In the shop a game is one variable product and each scraped variation one of its variations.
 * Both carry a SKU made from what they are (the game's name, the scraped product's id), so a
 * publish cut off half-way (the shop has the product, nobody recorded it) is finished by the next
 * try, which finds it by its SKU instead of making a second one.
 */
const scraperCategory = 'Scraper';
const shopCategory = 'WooCommerce';

export const listingStatuses = ['publish', 'draft'] as const;
export type ListingStatus = (typeof listingStatuses)[number];

/** A price in whole tögrög as WooCommerce takes prices: digits. */
const mntPrice = z.string().regex(/^\d{1,12}$/, 'must be a whole number of tögrög');

/** What shop-sync needs to put one scraped variation in the shop. */
export const shopListingSchema = z.object({
  scrapedProductId: z.number().int().positive(),
  gameName: z.string().trim().min(1).max(500),
  /** The variation's attribute (the card's, else 'Option'). */
  attributeName: z.string().trim().min(1).max(200),
  variationValue: z.string().trim().min(1).max(500),
  regularPrice: mntPrice,
  status: z.enum(listingStatuses),
});
export type ShopListing = z.infer<typeof shopListingSchema>;

/** Where a scraped variation is in the shop. */
export const shopPlaceSchema = z.object({
  /** The game's variable product. */
  parentId: z.number().int().positive(),
  variationId: z.number().int().positive(),
});
export type ShopPlace = z.infer<typeof shopPlaceSchema>;

export const shopListingPlacedSchema = shopPlaceSchema.extend({
  permalink: z.string(),
  status: z.string(),
  regularPrice: z.string(),
  /** It was in the shop already under its SKU (an earlier try got that far): taken over, not made again. */
  adopted: z.boolean(),
});
export type ShopListingPlaced = z.infer<typeof shopListingPlacedSchema>;

const examplePlace: ShopPlace = { parentId: 301, variationId: 302 };
const exampleListing: ShopListing = { scrapedProductId: 1, gameName: 'Mobile Legends', attributeName: 'Amount', variationValue: '86 Diamonds', regularPrice: '5797', status: 'publish' };

export const placeShopListing = defineRoute({
  owner: 'shop-sync', method: 'POST', path: '/internal/shop-sync/listings', access: 'internal', callers: ['scraper'], category: shopCategory,
  body: shopListingSchema,
  reply: shopListingPlacedSchema,
  summary: "Put a scraped variation in the shop (its game's variable product made when missing) at this price and status; found by SKU when already there",
  example: { body: exampleListing, reply: { ...examplePlace, permalink: 'https://shop.example.mn/product/mobile-legends/?attribute_amount=86+Diamonds', status: 'publish', regularPrice: '5797', adopted: false } },
});

export const setShopListingStatus = defineRoute({
  owner: 'shop-sync', method: 'POST', path: '/internal/shop-sync/listings/status', access: 'internal', callers: ['scraper'], category: shopCategory,
  body: shopPlaceSchema.extend({ status: z.enum(listingStatuses) }),
  reply: z.object({ status: z.string() }),
  summary: 'Make a published scraped variation public (publish) or private (draft) in the shop',
  example: { body: { ...examplePlace, status: 'draft' }, reply: { status: 'draft' } },
});

export const removeShopListing = defineRoute({
  owner: 'shop-sync', method: 'POST', path: '/internal/shop-sync/listings/remove', access: 'internal', callers: ['scraper'], category: shopCategory,
  body: shopPlaceSchema,
  reply: z.object({ removed: z.boolean(), parentRemoved: z.boolean() }),
  summary: 'Delete a scraped variation from the shop, and its game product when no variation is left (already gone: removed false)',
  example: { body: examplePlace, reply: { removed: true, parentRemoved: false } },
});

/** How many listings one internal call may carry. */
export const SHOP_LISTINGS_PER_CALL = 500;

export const missingShopListings = defineRoute({
  owner: 'shop-sync', method: 'POST', path: '/internal/shop-sync/listings/missing', access: 'internal', callers: ['scraper'], category: shopCategory,
  body: z.object({ items: z.array(shopPlaceSchema).max(SHOP_LISTINGS_PER_CALL) }),
  reply: z.object({ missing: z.array(shopPlaceSchema) }),
  summary: 'Which of these scraped variations the shop no longer has (deleted there)',
  example: { body: { items: [examplePlace] }, reply: { missing: [] } },
});

export const priceShopListings = defineRoute({
  owner: 'shop-sync', method: 'POST', path: '/internal/shop-sync/listings/prices', access: 'internal', callers: ['scraper'], category: shopCategory,
  body: z.object({ items: z.array(shopPlaceSchema.extend({ regularPrice: mntPrice })).max(SHOP_LISTINGS_PER_CALL) }),
  reply: z.object({ results: z.array(z.object({ variationId: z.number().int(), ok: z.boolean(), regularPrice: z.string().nullable(), error: z.string().nullable() })) }),
  summary: "Set scraped variations' prices in the shop, in batches per game; each item's outcome in order",
  example: { body: { items: [{ ...examplePlace, regularPrice: '6100' }] }, reply: { results: [{ variationId: 302, ok: true, regularPrice: '6100', error: null }] } },
});

/** A published scraped variation (document 2 §3 "product mapping"). */
export const productMappingViewSchema = z.object({
  id: z.number().int(),
  scrapedProductId: z.number().int(),
  /** The game's variable product in the shop (the page's woocommerceParentId). */
  woocommerceProductId: z.number().int(),
  /** The same product, as document 3 names the variation's parent. */
  parentProductId: z.number().int(),
  woocommerceVariationId: z.number().int(),
  status: z.enum(listingStatuses),
  autoSyncEnabled: z.boolean(),
  /** The price the shop was last given, in tögrög. */
  publishedPriceMnt: z.number().int(),
  /** Its marketplace price changed since it was last pushed: what Sync Changed Prices (N) counts. */
  priceChanged: z.boolean(),
  permalink: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ProductMappingView = z.infer<typeof productMappingViewSchema>;

const exampleMapping: ProductMappingView = {
  id: 1, scrapedProductId: 1, woocommerceProductId: 301, parentProductId: 301, woocommerceVariationId: 302, status: 'publish', autoSyncEnabled: false,
  publishedPriceMnt: 5797, priceChanged: false, permalink: 'https://shop.example.mn/product/mobile-legends/?attribute_amount=86+Diamonds', createdAt: '2026-11-26T08:10:00.000Z', updatedAt: '2026-11-26T08:10:00.000Z',
};
const productIdParams = z.object({ id: idParam });

export const PUBLISHED_MESSAGE = 'Product published to WooCommerce';
export const UNPUBLISHED_MESSAGE = 'Product unpublished successfully';
/** Publish-selected takes at most this many products at once (a page's worth of games, with room). */
export const MAX_PUBLISH_SELECTED = 500;

export const listProductMappings = defineRoute({
  owner: 'scraper', method: 'GET', path: '/api/scraper/mappings', access: 'admin', category: scraperCategory,
  reply: z.object({ success: z.boolean(), data: z.array(productMappingViewSchema) }),
  summary: 'The scraped variations published to the shop, with their shop ids, status and price',
  example: { reply: { success: true, data: [exampleMapping] } },
});

export const publishScrapedProduct = defineRoute({
  owner: 'scraper', method: 'POST', path: '/api/scraper/products/:id/publish', access: 'admin', category: scraperCategory,
  params: productIdParams,
  reply: z.object({ success: z.boolean(), message: z.string(), data: productMappingViewSchema }),
  summary: "Publish a scraped variation to WooCommerce at its MNT price (through shop-sync); publishing it again updates it",
  example: { params: { id: 1 }, reply: { success: true, message: PUBLISHED_MESSAGE, data: exampleMapping } },
});

export const unpublishScrapedProduct = defineRoute({
  owner: 'scraper', method: 'POST', path: '/api/scraper/products/:id/unpublish', access: 'admin', category: scraperCategory,
  params: productIdParams,
  reply: z.object({ success: z.boolean(), message: z.string() }),
  summary: 'Remove a published variation from WooCommerce (its game product too when it was the last)',
  example: { params: { id: 1 }, reply: { success: true, message: UNPUBLISHED_MESSAGE } },
});

export const toggleScrapedProductStatus = defineRoute({
  owner: 'scraper', method: 'POST', path: '/api/scraper/products/:id/toggle-status', access: 'admin', category: scraperCategory,
  params: productIdParams,
  body: z.object({ status: z.enum(listingStatuses, { error: 'status must be publish or draft' }) }),
  reply: z.object({ success: z.boolean(), message: z.string(), data: productMappingViewSchema }),
  summary: 'Make a published variation public (publish) or private (draft) in the shop',
  example: { params: { id: 1 }, body: { status: 'draft' }, reply: { success: true, message: 'Product is now private', data: { ...exampleMapping, status: 'draft' } } },
});

export const rescrapeScrapedProduct = defineRoute({
  owner: 'scraper', method: 'POST', path: '/api/scraper/products/:id/rescrape', access: 'admin', category: scraperCategory,
  params: productIdParams,
  reply: z.object({ success: z.boolean(), data: z.object({ oldPrice: z.number(), newPrice: z.number(), priceChanged: z.boolean() }) }),
  summary: "Read the variation's offer page again: its price before and now (USD), and whether it changed past the threshold",
  example: { params: { id: 1 }, reply: { success: true, data: { oldPrice: 1.55, newPrice: 1.62, priceChanged: true } } },
});

export const publishSelectedProducts = defineRoute({
  owner: 'scraper', method: 'POST', path: '/api/scraper/publish-selected', access: 'admin', category: scraperCategory,
  body: z.object({ productIds: z.array(idField()).min(1, 'Select at least one product').max(MAX_PUBLISH_SELECTED, `Publish at most ${MAX_PUBLISH_SELECTED} products at once`) }),
  reply: z.object({ success: z.boolean(), data: z.object({ successful: z.number().int(), failed: z.number().int(), errors: z.array(z.string()) }) }),
  summary: 'Publish several variations; each succeeds or fails alone, the failures named',
  example: { body: { productIds: [1, 2, 3] }, reply: { success: true, data: { successful: 2, failed: 1, errors: ['Product 3: not found'] } } },
});

export const syncShopDeletions = defineRoute({
  owner: 'scraper', method: 'POST', path: '/api/scraper/sync-deletions', access: 'admin', category: scraperCategory,
  reply: z.object({ success: z.boolean(), data: z.object({ checked: z.number().int(), deleted: z.number().int() }) }),
  summary: 'Forget the publications whose product was deleted in WooCommerce',
  example: { reply: { success: true, data: { checked: 12, deleted: 1 } } },
});

export const syncPublishedPrices = defineRoute({
  owner: 'scraper', method: 'POST', path: '/api/scraper/sync-prices', access: 'admin', category: scraperCategory,
  reply: z.object({ success: z.boolean(), data: z.object({ updated: z.number().int(), skipped: z.number().int(), errors: z.number().int(), failures: z.array(z.string()) }) }),
  summary: 'Give every published variation its MNT price as the rate, commission and tiers make it now (unchanged ones skipped)',
  example: { reply: { success: true, data: { updated: 3, skipped: 9, errors: 0, failures: [] } } },
});

export const syncChangedPrices = defineRoute({
  owner: 'scraper', method: 'POST', path: '/api/scraper/products/sync-changed-prices', access: 'admin', category: scraperCategory,
  reply: z.object({ success: z.boolean(), data: z.object({ syncedCount: z.number().int(), failed: z.number().int(), failures: z.array(z.string()) }) }),
  summary: 'Push the new prices of published variations whose price changed at the marketplace, and clear their Changed mark',
  example: { reply: { success: true, data: { syncedCount: 2, failed: 0, failures: [] } } },
});

export const shopListingRoutes = [placeShopListing, setShopListingStatus, removeShopListing, missingShopListings, priceShopListings];
export const scraperPublishRoutes = [
  listProductMappings, publishScrapedProduct, unpublishScrapedProduct, toggleScrapedProductStatus, rescrapeScrapedProduct,
  publishSelectedProducts, syncShopDeletions, syncPublishedPrices, syncChangedPrices,
];
