import { z } from 'zod';
import { defineRoute, successReply } from './contract';
import { idParam, INT32_MAX } from './fields';

/**
 * The scraper's routes (document 2 §7.3, issue 22): the exchange rate and the global commission,
 * the commission tiers, the marketplaces with their scrape configs, scrape jobs with their
 * progress stream, and the scraped products. Publishing to the shop is in scraped-listing-routes.ts.
 */
const category = 'Scraper';

/** Document 2 §9: shown when no rate was ever saved. */
export const DEFAULT_EXCHANGE_RATE = 3400;

export const MIN_PRICE_MESSAGE = 'Min Price is required and must be >= 0';
export const COMMISSION_RATE_MESSAGE = 'Commission Rate is required and must be >= 0';

/** A CSS selector as a scrape config names one. */
const selector = z.string().trim().min(1, 'must be a CSS selector').max(500);

/**
 * How to read a marketplace's listing pages (the marketplace's `scrapeConfig`): the card that
 * holds one offer, each field's selector inside it, what to wait for, and whether the page needs
 * a browser to render. Unknown fields are refused by name, so a typo never silently reads nothing.
 */
export const scrapeConfigSchema = z.strictObject({
  /** Pages that fill prices in with JavaScript need a browser (Chromium); plain HTML does not. */
  renderJavaScript: z.boolean().default(true),
  /** Wait until this matches before reading (a price filled in after load). */
  waitForSelector: selector.optional(),
  cardSelector: selector,
  fields: z.strictObject({
    gameName: selector,
    productName: selector,
    priceUsd: selector,
    attributeName: selector.optional(),
    variationValue: selector.optional(),
    sellerName: selector.optional(),
    sellerLevel: selector.optional(),
    sellerLocation: selector.optional(),
    orderSuccessRate: selector.optional(),
    totalSales: selector.optional(),
    ratingDescription: selector.optional(),
    ratingService: selector.optional(),
    ratingSpeed: selector.optional(),
  }),
  /** The offer's own page: an attribute of an element in the card (relative URLs are resolved against the page). */
  link: z.strictObject({ selector, attribute: z.string().trim().min(1).max(100).default('href') }).optional(),
  pagination: z
    .strictObject({
      param: z.string().trim().min(1).max(100).default('page'),
      firstPage: z.number().int().min(0).max(1).default(1),
      nextSelector: selector.optional(),
      totalPagesSelector: selector.optional(),
      totalPagesAttribute: z.string().trim().min(1).max(100).optional(),
    })
    .optional(),
});
export type ScrapeConfig = z.infer<typeof scrapeConfigSchema>;

/** A scrape config's problems in one sentence, each named by its path ("fields.price: unknown field"). */
function describeConfigIssues(issues: z.core.$ZodIssue[]): string {
  return issues
    .map((issue) => {
      const at = issue.path.join('.');
      if (issue.code === 'unrecognized_keys') return issue.keys.map((key) => `unknown field "${at ? `${at}.` : ''}${key}"`).join(', ');
      return `${at || 'the config'}: ${issue.message}`;
    })
    .join('; ');
}

/**
 * The scrape config as the form sends it: the JSON text typed in (or an object, or empty for
 * none). Invalid JSON and every problem in it are a 400 naming them.
 */
const scrapeConfigField = z
  .union([z.string(), z.record(z.string(), z.unknown()), z.null()])
  .transform((value, ctx): ScrapeConfig | null => {
    if (value === null || (typeof value === 'string' && value.trim() === '')) return null;
    let parsed: unknown = value;
    if (typeof value === 'string') {
      try {
        parsed = JSON.parse(value);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: `Scrape config is not valid JSON: ${(error as Error).message}` });
        return z.NEVER;
      }
    }
    const checked = scrapeConfigSchema.safeParse(parsed);
    if (!checked.success) {
      ctx.addIssue({ code: 'custom', message: `Scrape config is not valid: ${describeConfigIssues(checked.error.issues)}` });
      return z.NEVER;
    }
    return checked.data;
  });

export const marketplaceSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  url: z.string(),
  countryCode: z.string(),
  scrapeConfig: scrapeConfigSchema.nullable(),
  paginationEnabled: z.boolean(),
  paginationParam: z.string().nullable(),
  enabled: z.boolean(),
  createdAt: z.string(),
});
export type Marketplace = z.infer<typeof marketplaceSchema>;

const marketplaceFields = z.object({
  name: z.string({ error: 'Name is required' }).trim().min(1, 'Name is required').max(200),
  url: z
    .string({ error: 'URL is required' })
    .trim()
    .min(1, 'URL is required')
    .max(2_000)
    .pipe(z.url({ protocol: /^https?$/, error: 'URL must be an http(s) URL' })),
  // Document 2 §5: blank means us.
  countryCode: z
    .string()
    .trim()
    .max(2, 'Country code must be two letters')
    .transform((code) => (code === '' ? 'us' : code.toLowerCase()))
    .pipe(z.string().regex(/^[a-z]{2}$/, 'Country code must be two letters')),
  scrapeConfig: scrapeConfigField,
  paginationEnabled: z.boolean(),
  paginationParam: z.string().trim().max(100).nullable(),
  enabled: z.boolean(),
});
const marketplaceBody = marketplaceFields.extend({
  countryCode: marketplaceFields.shape.countryCode.default('us'),
  scrapeConfig: marketplaceFields.shape.scrapeConfig.default(null),
  paginationEnabled: marketplaceFields.shape.paginationEnabled.default(false),
  paginationParam: marketplaceFields.shape.paginationParam.default(null),
  enabled: marketplaceFields.shape.enabled.default(true),
});

export const exchangeRateSchema = z.object({
  fromCurrency: z.literal('USD'),
  toCurrency: z.literal('MNT'),
  /** MNT per 1 USD. */
  rate: z.number(),
  /** Percent added to every USD price without a tier. */
  commissionRate: z.number(),
  /** The rate in use (document 2 §3); a saved one stops being active when the next is saved. */
  isActive: z.boolean(),
  /** Who saved it (an admin's e-mail), and when (each save is a new record); null while the defaults stand. */
  updatedBy: z.string().nullable(),
  createdAt: z.string().nullable(),
});
export type ExchangeRate = z.infer<typeof exchangeRateSchema>;

export const commissionTierSchema = z.object({
  id: z.number().int(),
  minPrice: z.number(),
  /** Null: no upper limit. */
  maxPrice: z.number().nullable(),
  commissionRate: z.number(),
});
export type CommissionTier = z.infer<typeof commissionTierSchema>;

/** A USD amount as the forms send it: up to two decimals (step 0.01), never negative. */
const money = (message: string) => z.number({ error: message }).min(0, message).max(1_000_000_000, message).multipleOf(0.01, message);
const percent = (message: string) => z.number({ error: message }).min(0, message).max(10_000, message).multipleOf(0.1, message);

const tierBody = z
  .object({
    minPrice: money(MIN_PRICE_MESSAGE),
    maxPrice: money('Max Price must be >= 0').nullable().default(null),
    commissionRate: percent(COMMISSION_RATE_MESSAGE),
  })
  .refine((tier) => tier.maxPrice === null || tier.maxPrice > tier.minPrice, { path: ['maxPrice'], message: 'Max Price must be greater than Min Price' });

const idParams = z.object({ id: idParam });
const exampleConfig: ScrapeConfig = {
  renderJavaScript: true,
  waitForSelector: '.offer-card .offer-price-amount:not(:empty)',
  cardSelector: '.offer-card',
  fields: { gameName: '.offer-game', productName: '.offer-title', priceUsd: '.offer-price-amount' },
};
const exampleMarketplace: Marketplace = {
  id: 1, name: 'G2G', url: 'https://www.g2g.com/categories/mobile-legends-diamonds', countryCode: 'us', scrapeConfig: exampleConfig,
  paginationEnabled: true, paginationParam: 'page', enabled: true, createdAt: '2026-11-26T08:00:00.000Z',
};
// Examples carry fractions where fractions are allowed (the hostile-requests drill reads an integer example as an integer field).
const exampleRate: ExchangeRate = { fromCurrency: 'USD', toCurrency: 'MNT', rate: 3450.5, commissionRate: 10.5, isActive: true, updatedBy: 'admin@example.com', createdAt: '2026-11-26T08:00:00.000Z' };
const exampleTier: CommissionTier = { id: 1, minPrice: 0.5, maxPrice: 10.5, commissionRate: 15.5 };

export const getExchangeRate = defineRoute({
  owner: 'scraper', method: 'GET', path: '/api/scraper/exchange-rate', access: 'admin', category,
  reply: z.object({ success: z.boolean(), data: exchangeRateSchema }),
  summary: 'The exchange rate (MNT per USD, 3400 until one is saved) and the global commission, with who saved them',
  example: { reply: { success: true, data: exampleRate } },
});

export const updateExchangeRate = defineRoute({
  owner: 'scraper', method: 'PUT', path: '/api/scraper/exchange-rate', access: 'admin', category,
  body: z.object({ rate: z.number({ error: 'Rate must be a number' }).positive('Rate must be more than 0').max(1_000_000, 'Rate is too large') }),
  reply: z.object({ success: z.boolean(), data: exchangeRateSchema }),
  summary: 'Save the exchange rate (MNT per 1 USD)',
  example: { body: { rate: 3450.5 }, reply: { success: true, data: exampleRate } },
});

export const updateCommissionRate = defineRoute({
  owner: 'scraper', method: 'PUT', path: '/api/scraper/commission-rate', access: 'admin', category,
  body: z.object({ commissionRate: percent('Commission rate must be a number >= 0') }),
  reply: z.object({ success: z.boolean(), data: exchangeRateSchema }),
  summary: 'Save the global commission percent (used where no tier matches)',
  example: { body: { commissionRate: 10.5 }, reply: { success: true, data: exampleRate } },
});

export const listMarketplaces = defineRoute({
  owner: 'scraper', method: 'GET', path: '/api/scraper/marketplaces', access: 'admin', category,
  reply: z.object({ success: z.boolean(), data: z.array(marketplaceSchema) }),
  summary: 'The marketplaces, by name',
  example: { reply: { success: true, data: [exampleMarketplace] } },
});

export const createMarketplace = defineRoute({
  owner: 'scraper', method: 'POST', path: '/api/scraper/marketplaces', access: 'admin', category,
  body: marketplaceBody,
  reply: z.object({ success: z.boolean(), data: marketplaceSchema }),
  summary: 'Add a marketplace (its URL must be http(s) and reach no private address)',
  example: { body: { name: 'G2G', url: exampleMarketplace.url, countryCode: 'us', scrapeConfig: JSON.stringify(exampleConfig), paginationEnabled: true, paginationParam: 'page', enabled: true }, reply: { success: true, data: exampleMarketplace } },
});

export const updateMarketplace = defineRoute({
  owner: 'scraper', method: 'PUT', path: '/api/scraper/marketplaces/:id', access: 'admin', category,
  params: idParams,
  // Without the create defaults: a field left out stays as it is (the list's switch sends only enabled).
  body: marketplaceFields.partial(),
  reply: z.object({ success: z.boolean(), data: marketplaceSchema }),
  summary: 'Change a marketplace, or only switch it on or off',
  example: { params: { id: 1 }, body: { enabled: false }, reply: { success: true, data: { ...exampleMarketplace, enabled: false } } },
});

export const deleteMarketplace = defineRoute({
  owner: 'scraper', method: 'DELETE', path: '/api/scraper/marketplaces/:id', access: 'admin', category,
  params: idParams,
  reply: successReply,
  summary: 'Delete a marketplace',
  example: { params: { id: 1 }, reply: { success: true } },
});

export const listCommissionTiers = defineRoute({
  owner: 'scraper', method: 'GET', path: '/api/scraper/commission-tiers', access: 'admin', category,
  reply: z.object({ success: z.boolean(), data: z.array(commissionTierSchema) }),
  summary: 'The commission tiers, by min price',
  example: { reply: { success: true, data: [exampleTier] } },
});

export const createCommissionTier = defineRoute({
  owner: 'scraper', method: 'POST', path: '/api/scraper/commission-tiers', access: 'admin', category,
  body: tierBody,
  reply: z.object({ success: z.boolean(), data: commissionTierSchema }),
  summary: 'Add a commission tier (a USD price ≥ min and < max gets its rate)',
  example: { body: { minPrice: 0.5, maxPrice: 10.5, commissionRate: 15.5 }, reply: { success: true, data: exampleTier } },
});

export const updateCommissionTier = defineRoute({
  owner: 'scraper', method: 'PUT', path: '/api/scraper/commission-tiers/:id', access: 'admin', category,
  params: idParams,
  body: tierBody,
  reply: z.object({ success: z.boolean(), data: commissionTierSchema }),
  summary: 'Change a commission tier',
  example: { params: { id: 1 }, body: { minPrice: 0.5, maxPrice: 20.5, commissionRate: 12.5 }, reply: { success: true, data: { ...exampleTier, maxPrice: 20.5, commissionRate: 12.5 } } },
});

export const deleteCommissionTier = defineRoute({
  owner: 'scraper', method: 'DELETE', path: '/api/scraper/commission-tiers/:id', access: 'admin', category,
  params: idParams,
  reply: successReply,
  summary: 'Delete a commission tier',
  example: { params: { id: 1 }, reply: { success: true } },
});

/** Document 2 §4. */
export const scrapeJobStatuses = ['pending', 'in_progress', 'completed', 'failed', 'cancelled'] as const;
export type ScrapeJobStatus = (typeof scrapeJobStatuses)[number];
/** Document 2 §9: the products list's page size. */
export const PRODUCTS_PAGE_SIZE = 50;
/** The most pages one job may cover (a typo of 1..10000 would otherwise keep the workers busy for days). */
export const MAX_PAGES_PER_JOB = 500;
/** Document 2 §2.3: what a job whose selectors found nothing on three pages in a row fails with. */
export const LAYOUT_CHANGED_ERROR = 'selectors matched nothing: the page layout changed?';

export const scrapeJobSchema = z.object({
  id: z.number().int(),
  marketplaceId: z.number().int(),
  /** The marketplace's name, for the jobs table. */
  marketplaceName: z.string(),
  status: z.enum(scrapeJobStatuses),
  /** Pages completed so far. */
  currentPage: z.number().int(),
  totalPages: z.number().int(),
  startPage: z.number().int(),
  endPage: z.number().int(),
  totalProducts: z.number().int(),
  error: z.string().nullable(),
  startedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type ScrapeJob = z.infer<typeof scrapeJobSchema>;

/** One page of a job as the progress stream reports it (document 2 §3 "scrape progress"). */
export const scrapePageProgressSchema = z.object({
  jobId: z.number().int(),
  pageNumber: z.number().int(),
  status: z.enum(scrapeJobStatuses),
  productsFound: z.number().int(),
  productsInserted: z.number().int(),
  error: z.string().nullable(),
});
export type ScrapePageProgress = z.infer<typeof scrapePageProgressSchema>;

/** Document 2 §4: the progress stream's event names. */
export const scrapeProgressEvents = ['init', 'job_start', 'page_start', 'page_complete', 'page_failed', 'job_complete', 'job_failed', 'job_cancelled'] as const;
export type ScrapeProgressEventName = (typeof scrapeProgressEvents)[number];

export const scrapedProductSchema = z.object({
  id: z.number().int(),
  marketplaceId: z.number().int(),
  gameName: z.string(),
  productName: z.string(),
  variationValue: z.string().nullable(),
  attributeName: z.string().nullable(),
  priceUsd: z.number(),
  /** The price before the last change (set with priceChanged). */
  previousPriceUsd: z.number().nullable(),
  priceChanged: z.boolean(),
  sourceUrl: z.string().nullable(),
  sellerName: z.string().nullable(),
  sellerLevel: z.number().int().nullable(),
  sellerLocation: z.string().nullable(),
  orderSuccessRate: z.number().nullable(),
  totalSales: z.number().int().nullable(),
  ratingDescription: z.number().nullable(),
  ratingService: z.number().nullable(),
  ratingSpeed: z.number().nullable(),
  rawText: z.string(),
  scrapedAt: z.string(),
  woocommerceVariationId: z.number().int().nullable(),
  woocommerceParentId: z.number().int().nullable(),
});
export type ScrapedProduct = z.infer<typeof scrapedProductSchema>;

const pageNumber = (name: string) => z.number({ error: `${name} must be a whole number of at least 1` }).int(`${name} must be a whole number of at least 1`).min(1, `${name} must be at least 1`).max(100_000, `${name} is too large`);
const scrapeBody = z
  .object({ startPage: pageNumber('Start page').default(1), endPage: pageNumber('End page').default(1) })
  .refine((pages) => pages.endPage >= pages.startPage, { path: ['endPage'], message: 'End page must not be before the start page' })
  .refine((pages) => pages.endPage - pages.startPage < MAX_PAGES_PER_JOB, { path: ['endPage'], message: `A job scrapes at most ${MAX_PAGES_PER_JOB} pages` });

const exampleJob: ScrapeJob = {
  id: 1, marketplaceId: 1, marketplaceName: 'G2G', status: 'in_progress', currentPage: 2, totalPages: 5, startPage: 1, endPage: 5, totalProducts: 16,
  error: null, startedAt: '2026-11-26T08:00:01.000Z', completedAt: null, createdAt: '2026-11-26T08:00:00.000Z',
};
const exampleProduct: ScrapedProduct = {
  id: 1, marketplaceId: 1, gameName: 'Mobile Legends', productName: 'Diamonds top-up', variationValue: '86 Diamonds', attributeName: 'Amount',
  priceUsd: 1.55, previousPriceUsd: null, priceChanged: false, sourceUrl: 'https://www.g2g.com/offers/G1234', sellerName: 'TopUpKing', sellerLevel: 12,
  sellerLocation: 'Malaysia', orderSuccessRate: 99.5, totalSales: 12345, ratingDescription: 4.9, ratingService: 4.8, ratingSpeed: 4.7,
  rawText: 'Mobile Legends Diamonds top-up Amount: 86 Diamonds 1.55 USD', scrapedAt: '2026-11-26T08:00:05.000Z', woocommerceVariationId: null, woocommerceParentId: null,
};
const jobIdParams = z.object({ id: idParam });

export const startScrape = defineRoute({
  owner: 'scraper', method: 'POST', path: '/api/scraper/scrape/:marketplaceId', access: 'admin', category,
  params: z.object({ marketplaceId: idParam }),
  body: scrapeBody,
  reply: z.object({ success: z.boolean(), jobId: z.number().int(), data: scrapeJobSchema }),
  summary: 'Scrape pages startPage..endPage of an enabled marketplace: a job whose pages every scraper replica shares',
  example: { params: { marketplaceId: 1 }, body: { startPage: 1, endPage: 5 }, reply: { success: true, jobId: 1, data: { ...exampleJob, status: 'pending', currentPage: 0, totalProducts: 0, startedAt: null } } },
});

export const listScrapeJobs = defineRoute({
  owner: 'scraper', method: 'GET', path: '/api/scraper/jobs', access: 'admin', category,
  query: z.object({ limit: z.coerce.number().int().min(1).max(200).default(50) }),
  reply: z.object({ success: z.boolean(), data: z.array(scrapeJobSchema) }),
  summary: 'The latest scrape jobs, newest first',
  example: { query: { limit: 50 }, reply: { success: true, data: [exampleJob] } },
});

export const resumeScrapeJob = defineRoute({
  owner: 'scraper', method: 'POST', path: '/api/scraper/jobs/:id/resume', access: 'admin', category,
  params: jobIdParams,
  reply: z.object({ success: z.boolean(), data: scrapeJobSchema }),
  summary: 'Resume a failed or cancelled job from its first page not completed',
  example: { params: { id: 1 }, reply: { success: true, data: { ...exampleJob, status: 'pending' } } },
});

export const cancelScrapeJob = defineRoute({
  owner: 'scraper', method: 'POST', path: '/api/scraper/jobs/:id/cancel', access: 'admin', category,
  params: jobIdParams,
  reply: z.object({ success: z.boolean(), data: scrapeJobSchema }),
  summary: 'Cancel a pending or running job (its pages stop within 5 s)',
  example: { params: { id: 1 }, reply: { success: true, data: { ...exampleJob, status: 'cancelled' } } },
});

export const scrapeJobProgress = defineRoute({
  owner: 'scraper', method: 'GET', path: '/api/scraper/jobs/:id/progress', access: 'admin', category,
  params: jobIdParams,
  reply: z.string(),
  replyKind: 'stream',
  summary: 'Server-sent events of one job: init (the job), job_start, page_start, page_complete, page_failed, then job_complete, job_failed or job_cancelled and the end (id: the event\'s number; Last-Event-ID resumes), a comment every 15 s',
  example: { params: { id: 1 }, reply: 'id: 3\nevent: page_complete\ndata: {"jobId":1,"pageNumber":1,"status":"completed","productsFound":8,"productsInserted":8,"error":null}\n\n' },
});

export const listScrapedProducts = defineRoute({
  owner: 'scraper', method: 'GET', path: '/api/scraper/products', access: 'admin', category,
  query: z.object({
    page: z.coerce.number().int().min(1).max(INT32_MAX).default(1),
    limit: z.coerce.number().int().min(1).max(200).default(PRODUCTS_PAGE_SIZE),
  }),
  reply: z.object({
    success: z.boolean(),
    data: z.array(scrapedProductSchema),
    pagination: z.object({ page: z.number().int(), limit: z.number().int(), total: z.number().int(), totalPages: z.number().int() }),
  }),
  summary: 'Scraped products (variations) by game, product and variation, a page at a time',
  example: { query: { page: 1, limit: 50 }, reply: { success: true, data: [exampleProduct], pagination: { page: 1, limit: 50, total: 1, totalPages: 1 } } },
});

/** One game of the Products tab's grouping: its variations (all of them, not one page's) and how many changed. */
export const productGameSchema = z.object({
  gameName: z.string(),
  variations: z.number().int(),
  changed: z.number().int(),
  marketplaces: z.number().int(),
  minPriceUsd: z.number(),
  maxPriceUsd: z.number(),
});
export type ProductGame = z.infer<typeof productGameSchema>;

/** A row of the Comparison tab: one marketplace's offer of a product variation, with its price in MNT as the pricing settings make it. */
export const comparisonRowSchema = z.object({
  productId: z.number().int(),
  productName: z.string(),
  variationValue: z.string().nullable(),
  marketplaceId: z.number().int(),
  marketplaceName: z.string(),
  priceUsd: z.number(),
  priceMnt: z.number().int(),
  sellerName: z.string().nullable(),
  /** The lowest price of this product variation across the marketplaces (ties: each). */
  cheapest: z.boolean(),
});
export type ComparisonRow = z.infer<typeof comparisonRowSchema>;

const gameNameParam = z.object({ gameName: z.string().trim().min(1, 'Game name is required').max(500) });

export const deleteScrapedProduct = defineRoute({
  owner: 'scraper', method: 'DELETE', path: '/api/scraper/products/:id', access: 'admin', category,
  params: z.object({ id: idParam }),
  reply: successReply,
  summary: 'Delete a scraped variation',
  example: { params: { id: 1 }, reply: { success: true } },
});

export const deleteScrapedGame = defineRoute({
  owner: 'scraper', method: 'DELETE', path: '/api/scraper/products/game/:gameName', access: 'admin', category,
  params: gameNameParam,
  reply: z.object({ success: z.boolean(), data: z.object({ deleted: z.number().int() }) }),
  summary: 'Delete every scraped variation of a game',
  example: { params: { gameName: 'Mobile Legends' }, reply: { success: true, data: { deleted: 12 } } },
});

export const listProductGames = defineRoute({
  owner: 'scraper', method: 'GET', path: '/api/scraper/products/games', access: 'admin', category,
  reply: z.object({ success: z.boolean(), data: z.array(productGameSchema) }),
  summary: 'The scraped games with their variation counts (the Products tab\'s badges), by name',
  example: { reply: { success: true, data: [{ gameName: 'Mobile Legends', variations: 12, changed: 1, marketplaces: 2, minPriceUsd: 1.55, maxPriceUsd: 48.5 }] } },
});

export const getPriceComparison = defineRoute({
  owner: 'scraper', method: 'GET', path: '/api/scraper/comparison', access: 'admin', category,
  query: z.object({ gameName: z.string().trim().min(1).max(500).optional() }),
  reply: z.object({ success: z.boolean(), data: z.array(z.object({ gameName: z.string(), rows: z.array(comparisonRowSchema) })) }),
  summary: 'Per game, every marketplace\'s price of each product variation in USD and MNT, the cheapest of each marked',
  example: {
    query: { gameName: 'Mobile Legends' },
    reply: { success: true, data: [{ gameName: 'Mobile Legends', rows: [{ productId: 1, productName: 'Diamonds top-up', variationValue: '86 Diamonds', marketplaceId: 1, marketplaceName: 'G2G', priceUsd: 1.55, priceMnt: 5270, sellerName: 'TopUpKing', cheapest: true }] }] },
  },
});

export const scraperRoutes = [
  getExchangeRate, updateExchangeRate, updateCommissionRate,
  listMarketplaces, createMarketplace, updateMarketplace, deleteMarketplace,
  listCommissionTiers, createCommissionTier, updateCommissionTier, deleteCommissionTier,
  startScrape, listScrapeJobs, resumeScrapeJob, cancelScrapeJob, scrapeJobProgress, listScrapedProducts,
  listProductGames, getPriceComparison, deleteScrapedProduct, deleteScrapedGame,
];
