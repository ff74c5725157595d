/**
 * The /scraper-admin page's calls and the rules it applies without the server. Their shapes are the
 * route contracts' (types only: no zod in the bundle); the constants and texts that mirror proto's
 * values are checked against them in api.test.ts.
 */
import type {
  CommissionTier,
  createCommissionTier,
  createMarketplace,
  getExchangeRate,
  getPriceComparison,
  listCommissionTiers,
  listMarketplaces,
  listProductGames,
  listProductMappings,
  listScrapedProducts,
  listScrapeJobs,
  publishScrapedProduct,
  publishSelectedProducts,
  ReplyOf,
  RequestBodyOf,
  rescrapeScrapedProduct,
  resumeScrapeJob,
  ScrapedProduct,
  ScrapeJob,
  ScrapeJobStatus,
  startScrape,
  syncChangedPrices,
  syncPublishedPrices,
  syncShopDeletions,
  toggleScrapedProductStatus,
  unpublishScrapedProduct,
  updateCommissionRate,
  updateExchangeRate,
  updateMarketplace,
} from '@bo/proto';
import { apiKey, apiPath, queryString } from '../../lib/paths';

export type {
  CommissionTier, ComparisonRow, ExchangeRate, ListingStatus, ProductGame, ProductMappingView, ScrapedProduct, ScrapeJob, ScrapeJobStatus,
  ScrapePageProgress, ScrapeProgressEventName,
} from '@bo/proto';

export type ExchangeRateReply = ReplyOf<typeof getExchangeRate>;
export type RateUpdate = RequestBodyOf<typeof updateExchangeRate>;
export type CommissionUpdate = RequestBodyOf<typeof updateCommissionRate>;
export type RateReply = ReplyOf<typeof updateExchangeRate>;
export type TiersReply = ReplyOf<typeof listCommissionTiers>;
export type TierBody = RequestBodyOf<typeof createCommissionTier>;
export type TierReply = ReplyOf<typeof createCommissionTier>;
export type MarketplacesReply = ReplyOf<typeof listMarketplaces>;
/** A marketplace as the list answers it (its config as sent: defaults not filled in). */
export type Marketplace = MarketplacesReply['data'][number];
export type MarketplaceBody = RequestBodyOf<typeof createMarketplace>;
export type MarketplaceUpdate = RequestBodyOf<typeof updateMarketplace>;
export type MarketplaceReply = ReplyOf<typeof createMarketplace>;
export type JobsReply = ReplyOf<typeof listScrapeJobs>;
export type ScrapeBody = RequestBodyOf<typeof startScrape>;
export type ScrapeReply = ReplyOf<typeof startScrape>;
export type JobReply = ReplyOf<typeof resumeScrapeJob>;
export type ProductsReply = ReplyOf<typeof listScrapedProducts>;
export type GamesReply = ReplyOf<typeof listProductGames>;
export type ComparisonReply = ReplyOf<typeof getPriceComparison>;
export type MappingsReply = ReplyOf<typeof listProductMappings>;
export type PublishReply = ReplyOf<typeof publishScrapedProduct>;
export type UnpublishReply = ReplyOf<typeof unpublishScrapedProduct>;
export type ToggleReply = ReplyOf<typeof toggleScrapedProductStatus>;
export type RescrapeReply = ReplyOf<typeof rescrapeScrapedProduct>;
export type PublishSelectedReply = ReplyOf<typeof publishSelectedProducts>;
export type SyncDeletionsReply = ReplyOf<typeof syncShopDeletions>;
export type SyncPricesReply = ReplyOf<typeof syncPublishedPrices>;
export type SyncChangedReply = ReplyOf<typeof syncChangedPrices>;
export type DeleteGameReply = { success: boolean; data: { deleted: number } };
export type SuccessReply = { success: boolean };

/** Document 2 §9 (mirrors proto's PRODUCTS_PAGE_SIZE): the products list's page size. */
export const PRODUCTS_PAGE_SIZE = 50;
/** Document 2 §9 (mirrors proto's DEFAULT_EXCHANGE_RATE): the rate shown until one is saved. */
export const DEFAULT_EXCHANGE_RATE = 3400;
/** Document 2 §9: the progress dialog's elapsed timer ticks every second. */
export const ELAPSED_TICK_MS = 1_000;
/** Document 2 §9: the bulk publish's toast with failures stays this long. */
export const BULK_PUBLISH_ERROR_TOAST_MS = 10_000;
/** Document 2 §8: the bulk publish's toast names this many of its errors, then '...and N more'. */
export const ERRORS_SHOWN = 3;
/** Mirrors proto's MAX_PAGES_PER_JOB: the most pages one job may cover. */
export const MAX_PAGES_PER_JOB = 500;
/** Mirrors proto's MAX_PUBLISH_SELECTED. */
export const MAX_PUBLISH_SELECTED = 500;
/** While a listed job moves, the jobs table is asked for again this often (its own dialog follows the job's stream). */
export const ACTIVE_JOBS_POLL_MS = 2_000;

/** Document 2 §4 (mirrors proto's scrapeJobStatuses and scrapeProgressEvents). */
export const jobStatusList = ['pending', 'in_progress', 'completed', 'failed', 'cancelled'] as const satisfies readonly ScrapeJobStatus[];
export const progressEventList = ['init', 'job_start', 'page_start', 'page_complete', 'page_failed', 'job_complete', 'job_failed', 'job_cancelled'] as const;
export const endingEvents = ['job_complete', 'job_failed', 'job_cancelled'] as const;

/** Query keys are GET paths (lib/api.ts pathOfKey). */
export const scraperKeys = {
  exchangeRate: apiKey('/api/scraper/exchange-rate'),
  tiers: apiKey('/api/scraper/commission-tiers'),
  marketplaces: apiKey('/api/scraper/marketplaces'),
  jobs: apiKey('/api/scraper/jobs'),
  /** Every page of the products list. */
  productsAll: apiKey('/api/scraper/products'),
  products: (page: number) => apiKey('/api/scraper/products', queryString({ page, limit: PRODUCTS_PAGE_SIZE })),
  games: apiKey('/api/scraper/products/games'),
  mappings: apiKey('/api/scraper/mappings'),
  comparison: apiKey('/api/scraper/comparison'),
} as const;

export const scraperPaths = {
  exchangeRate: '/api/scraper/exchange-rate',
  commissionRate: '/api/scraper/commission-rate',
  tiers: '/api/scraper/commission-tiers',
  tier: (id: number) => apiPath('/api/scraper/commission-tiers/:id', { id }),
  marketplaces: '/api/scraper/marketplaces',
  marketplace: (id: number) => apiPath('/api/scraper/marketplaces/:id', { id }),
  scrape: (marketplaceId: number) => apiPath('/api/scraper/scrape/:marketplaceId', { marketplaceId }),
  resume: (id: number) => apiPath('/api/scraper/jobs/:id/resume', { id }),
  cancel: (id: number) => apiPath('/api/scraper/jobs/:id/cancel', { id }),
  progress: (id: number) => apiPath('/api/scraper/jobs/:id/progress', { id }),
  product: (id: number) => apiPath('/api/scraper/products/:id', { id }),
  game: (gameName: string) => apiPath('/api/scraper/products/game/:gameName', { gameName }),
  publish: (id: number) => apiPath('/api/scraper/products/:id/publish', { id }),
  unpublish: (id: number) => apiPath('/api/scraper/products/:id/unpublish', { id }),
  toggleStatus: (id: number) => apiPath('/api/scraper/products/:id/toggle-status', { id }),
  rescrape: (id: number) => apiPath('/api/scraper/products/:id/rescrape', { id }),
  publishSelected: '/api/scraper/publish-selected',
  syncDeletions: '/api/scraper/sync-deletions',
  syncPrices: '/api/scraper/sync-prices',
  syncChangedPrices: '/api/scraper/products/sync-changed-prices',
} as const;

// ——— Jobs and their progress (document 2 §4) ———

export const isActiveJob = (job: Pick<ScrapeJob, 'status'>): boolean => job.status === 'pending' || job.status === 'in_progress';
/** Failed or cancelled jobs can be resumed. */
export const canResume = (job: Pick<ScrapeJob, 'status'>): boolean => job.status === 'failed' || job.status === 'cancelled';

/** Document 2 §4: floor of current page over total pages, in whole percent (0–100). */
export function progressPercent(currentPage: number, totalPages: number): number {
  if (totalPages <= 0) return 0;
  return Math.floor((Math.min(Math.max(currentPage, 0), totalPages) / totalPages) * 100);
}

/**
 * Document 2 §4: the time left is the time taken divided by the pages done, times the pages left;
 * null until a page is done (nothing to go by) and once none are left.
 */
export function remainingMs(elapsedMs: number, pagesDone: number, totalPages: number): number | null {
  const left = totalPages - pagesDone;
  if (pagesDone <= 0 || left <= 0 || elapsedMs < 0) return null;
  return Math.round((elapsedMs / pagesDone) * left);
}

/** A duration as a clock: '0:07', '12:05', '1:02:09' (whole seconds, rounded down). */
export function clock(ms: number): string {
  const total = Math.floor(Math.max(0, ms) / 1000);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`;
}

/** Document 2 §5: the scrape dialog's page count, end − start + 1 (0 while the range is not one). */
export function pagesToScrape(startPage: number, endPage: number): number {
  if (!Number.isInteger(startPage) || !Number.isInteger(endPage) || startPage < 1 || endPage < startPage) return 0;
  return endPage - startPage + 1;
}

/** A page number as typed: a whole number of at least 1, else null. */
export function pageNumberOf(text: string): number | null {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return null;
  const page = Number(trimmed);
  return page >= 1 && page <= 100_000 ? page : null;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;
const pad = (value: number) => String(value).padStart(2, '0');

/** Document 2 §2.3: the jobs table's Created, 'MMM d, yyyy HH:mm' in the browser's time zone ('Nov 26, 2026 08:00'). */
export function jobCreatedAt(value: string | number | Date): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  return `${MONTHS[date.getMonth()]} ${date.getDate()}, ${date.getFullYear()} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

// ——— Bulk publish (document 2 §8) ———

/** The errors a toast lists: the first ERRORS_SHOWN, and how many more there are (0 when none). */
export function errorsSummary(errors: readonly string[], shown: number = ERRORS_SHOWN): { listed: string[]; more: number } {
  return { listed: errors.slice(0, shown), more: Math.max(0, errors.length - shown) };
}

/**
 * The Partial Success toast's text: the counts, then the first three errors one a line, then
 * '...and N more' (its words from the texts: `counts` and `more`).
 */
export function partialSuccessText(errors: readonly string[], counts: string, more: (count: number) => string): string {
  const { listed, more: rest } = errorsSummary(errors);
  return [counts, ...listed, ...(rest > 0 ? [more(rest)] : [])].join('\n');
}

// ——— Products: grouping, selection, publication ———

export interface GameGroup {
  gameName: string;
  /** This page's variations of the game. */
  products: ScrapedProduct[];
}

/** A page of products grouped by game, in the order the server sent them (by game, product, price). */
export function groupByGame(products: readonly ScrapedProduct[]): GameGroup[] {
  const groups = new Map<string, ScrapedProduct[]>();
  for (const product of products) {
    const group = groups.get(product.gameName);
    if (group) group.push(product);
    else groups.set(product.gameName, [product]);
  }
  return [...groups].map(([gameName, rows]) => ({ gameName, products: rows }));
}

/** A product is published when the shop has it: a mapping names it, or it carries its variation's id. */
export function isPublished(product: Pick<ScrapedProduct, 'id' | 'woocommerceVariationId'>, publishedIds: ReadonlySet<number>): boolean {
  return publishedIds.has(product.id) || product.woocommerceVariationId !== null;
}

/** A game's checkbox: checked when every selectable variation is, indeterminate when some are, and disabled without any. */
export function groupCheckState(products: readonly ScrapedProduct[], selected: ReadonlySet<number>, publishedIds: ReadonlySet<number>): { checked: boolean | 'indeterminate'; selectable: number[] } {
  const selectable = products.filter((product) => !isPublished(product, publishedIds)).map((product) => product.id);
  const chosen = selectable.filter((id) => selected.has(id)).length;
  const checked = selectable.length > 0 && chosen === selectable.length ? true : chosen > 0 ? 'indeterminate' : false;
  return { checked, selectable };
}

/** The selection after a game's checkbox is clicked: all its selectable variations in, or (when all were in) all out. */
export function toggleGroup(selected: ReadonlySet<number>, selectable: readonly number[]): Set<number> {
  const next = new Set(selected);
  const all = selectable.length > 0 && selectable.every((id) => next.has(id));
  for (const id of selectable) {
    if (all) next.delete(id);
    else next.add(id);
  }
  return next;
}

/** The products list's footer: 'Showing a-b of total'. */
export function pageRange(page: number, total: number, pageSize: number = PRODUCTS_PAGE_SIZE): { from: number; to: number } {
  if (total <= 0) return { from: 0, to: 0 };
  const from = (page - 1) * pageSize + 1;
  return { from: Math.min(from, total), to: Math.min(page * pageSize, total) };
}

/** A product's name with its variation ('Genesis Crystals — 60 Genesis Crystals'), for labels and toasts. */
export const productLabel = (product: Pick<ScrapedProduct, 'productName' | 'variationValue'>) =>
  product.variationValue ? `${product.productName} — ${product.variationValue}` : product.productName;

/** A USD amount as the page shows it: '$4.99'. */
export const usd = (value: number) => `$${value.toFixed(2)}`;

// ——— Pricing (document 2 §5, §9) ———

/** Tiers ascending by min price. */
export const sortTiers = (tiers: readonly CommissionTier[]): CommissionTier[] => [...tiers].sort((a, b) => a.minPrice - b.minPrice || a.id - b.id);

/** A number as typed into a form: null when blank or not a finite number. */
export function numberOf(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : null;
}

export type TierProblem = 'minPrice' | 'maxPrice' | 'commissionRate';

/**
 * Document 2 §5: min price and commission rate are required and >= 0; an empty max price means no
 * upper limit. The first problem found, or the body to send.
 */
export function tierBodyOf(form: { minPrice: string; maxPrice: string; commissionRate: string }): { problem: TierProblem } | { body: { minPrice: number; maxPrice: number | null; commissionRate: number } } {
  const minPrice = numberOf(form.minPrice);
  if (minPrice === null || minPrice < 0) return { problem: 'minPrice' };
  const commissionRate = numberOf(form.commissionRate);
  if (commissionRate === null || commissionRate < 0) return { problem: 'commissionRate' };
  const maxText = form.maxPrice.trim();
  const maxPrice = maxText === '' ? null : numberOf(maxText);
  if (maxText !== '' && (maxPrice === null || maxPrice < 0)) return { problem: 'maxPrice' };
  return { body: { minPrice, maxPrice, commissionRate } };
}

/** The tier lookup and the MNT formula are the server's own (proto's scraper-prices, no zod in it). */
export { commissionFor, priceInMnt } from '@bo/proto/scraper-prices';

// ——— Marketplaces (document 2 §5) ———

export interface MarketplaceForm {
  name: string;
  url: string;
  countryCode: string;
  scrapeConfig: string;
  paginationEnabled: boolean;
  paginationParam: string;
  enabled: boolean;
}

export type MarketplaceProblem = 'nameRequired' | 'urlRequired' | 'urlInvalid';

/** Whether the text is an absolute http(s) URL. */
export function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text.trim());
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * Document 2 §5: name and URL required, the URL a URL; a blank country code is us; the scrape
 * config goes as typed (the server parses it and names what is wrong); the pagination parameter
 * only when pagination is on. The problems by field, or the body.
 */
export function marketplaceBodyOf(form: MarketplaceForm): { problems: Partial<Record<'name' | 'url', MarketplaceProblem>> } | { body: Required<Pick<MarketplaceBody, 'name' | 'url' | 'countryCode' | 'scrapeConfig' | 'paginationEnabled' | 'paginationParam' | 'enabled'>> } {
  const problems: Partial<Record<'name' | 'url', MarketplaceProblem>> = {};
  if (!form.name.trim()) problems.name = 'nameRequired';
  if (!form.url.trim()) problems.url = 'urlRequired';
  else if (!isHttpUrl(form.url)) problems.url = 'urlInvalid';
  if (problems.name || problems.url) return { problems };
  return {
    body: {
      name: form.name.trim(),
      url: form.url.trim(),
      countryCode: form.countryCode.trim().toLowerCase() || 'us',
      scrapeConfig: form.scrapeConfig.trim() === '' ? null : form.scrapeConfig,
      paginationEnabled: form.paginationEnabled,
      paginationParam: form.paginationEnabled ? form.paginationParam.trim() || 'page' : null,
      enabled: form.enabled,
    },
  };
}

/** A saved config as the form's text (pretty JSON), '' for none. */
export const configText = (config: unknown) => (config === null || config === undefined ? '' : JSON.stringify(config, null, 2));
