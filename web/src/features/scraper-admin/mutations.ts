import { apiRequest } from '../../lib/api';
import { useInvalidatingMutation, type CallerOptions } from '../../lib/mutation';
import {
  scraperKeys, scraperPaths, type CommissionUpdate, type DeleteGameReply, type JobReply, type ListingStatus, type MarketplaceBody, type MarketplaceReply,
  type MarketplaceUpdate, type PublishReply, type PublishSelectedReply, type RateReply, type RateUpdate, type RescrapeReply, type ScrapeBody, type ScrapeReply,
  type SuccessReply, type SyncChangedReply, type SyncDeletionsReply, type SyncPricesReply, type TierBody, type TierReply, type ToggleReply, type UnpublishReply,
} from './api';

/** The rate, the commission and the tiers make every MNT price: the comparison's too. */
const pricingKeys = [scraperKeys.exchangeRate, scraperKeys.tiers, scraperKeys.comparison];
/** What a publication changes: the rows' published state and the mappings. */
const publicationKeys = [scraperKeys.productsAll, scraperKeys.mappings];
/** What a product's price or presence changes: the rows, the games' counts and the comparison (and the mappings of one deleted). */
const productKeys = [scraperKeys.productsAll, scraperKeys.games, scraperKeys.comparison, scraperKeys.mappings];

export const useUpdateRate = (options?: CallerOptions<RateReply, RateUpdate>) =>
  useInvalidatingMutation((body: RateUpdate) => apiRequest<RateReply>('PUT', scraperPaths.exchangeRate, body), pricingKeys, options);

export const useUpdateCommission = (options?: CallerOptions<RateReply, CommissionUpdate>) =>
  useInvalidatingMutation((body: CommissionUpdate) => apiRequest<RateReply>('PUT', scraperPaths.commissionRate, body), pricingKeys, options);

export const useCreateTier = (options?: CallerOptions<TierReply, TierBody>) =>
  useInvalidatingMutation((body: TierBody) => apiRequest<TierReply>('POST', scraperPaths.tiers, body), pricingKeys, options);

export const useUpdateTier = (options?: CallerOptions<TierReply, { id: number; body: TierBody }>) =>
  useInvalidatingMutation(({ id, body }: { id: number; body: TierBody }) => apiRequest<TierReply>('PUT', scraperPaths.tier(id), body), pricingKeys, options);

export const useDeleteTier = (options?: CallerOptions<SuccessReply, number>) =>
  useInvalidatingMutation((id: number) => apiRequest<SuccessReply>('DELETE', scraperPaths.tier(id)), pricingKeys, options);

export const useCreateMarketplace = (options?: CallerOptions<MarketplaceReply, MarketplaceBody>) =>
  useInvalidatingMutation((body: MarketplaceBody) => apiRequest<MarketplaceReply>('POST', scraperPaths.marketplaces, body), [scraperKeys.marketplaces], options);

/** The table's switch sends only `enabled`; the dialog every field. A name shows in the jobs and the comparison. */
export const useUpdateMarketplace = (options?: CallerOptions<MarketplaceReply, { id: number; body: MarketplaceUpdate }>) =>
  useInvalidatingMutation(
    ({ id, body }: { id: number; body: MarketplaceUpdate }) => apiRequest<MarketplaceReply>('PUT', scraperPaths.marketplace(id), body),
    [scraperKeys.marketplaces, scraperKeys.jobs, scraperKeys.comparison],
    options,
  );

/** A marketplace's jobs and products may go with it. */
export const useDeleteMarketplace = (options?: CallerOptions<SuccessReply, number>) =>
  useInvalidatingMutation((id: number) => apiRequest<SuccessReply>('DELETE', scraperPaths.marketplace(id)), [scraperKeys.marketplaces, scraperKeys.jobs, ...productKeys], options);

export const useStartScrape = (options?: CallerOptions<ScrapeReply, { marketplaceId: number; body: ScrapeBody }>) =>
  useInvalidatingMutation(({ marketplaceId, body }: { marketplaceId: number; body: ScrapeBody }) => apiRequest<ScrapeReply>('POST', scraperPaths.scrape(marketplaceId), body), [scraperKeys.jobs], options);

export const useResumeJob = (options?: CallerOptions<JobReply, number>) =>
  useInvalidatingMutation((id: number) => apiRequest<JobReply>('POST', scraperPaths.resume(id)), [scraperKeys.jobs], options);

export const useCancelJob = (options?: CallerOptions<JobReply, number>) =>
  useInvalidatingMutation((id: number) => apiRequest<JobReply>('POST', scraperPaths.cancel(id)), [scraperKeys.jobs, ...productKeys], options);

export const usePublishProduct = (options?: CallerOptions<PublishReply, number>) =>
  useInvalidatingMutation((id: number) => apiRequest<PublishReply>('POST', scraperPaths.publish(id)), publicationKeys, options);

export const useUnpublishProduct = (options?: CallerOptions<UnpublishReply, number>) =>
  useInvalidatingMutation((id: number) => apiRequest<UnpublishReply>('POST', scraperPaths.unpublish(id)), publicationKeys, options);

export const useToggleProductStatus = (options?: CallerOptions<ToggleReply, { id: number; status: ListingStatus }>) =>
  useInvalidatingMutation(({ id, status }: { id: number; status: ListingStatus }) => apiRequest<ToggleReply>('POST', scraperPaths.toggleStatus(id), { status }), publicationKeys, options);

export const useRescrapeProduct = (options?: CallerOptions<RescrapeReply, number>) =>
  useInvalidatingMutation((id: number) => apiRequest<RescrapeReply>('POST', scraperPaths.rescrape(id)), productKeys, options);

export const useDeleteProduct = (options?: CallerOptions<SuccessReply, number>) =>
  useInvalidatingMutation((id: number) => apiRequest<SuccessReply>('DELETE', scraperPaths.product(id)), productKeys, options);

export const useDeleteGame = (options?: CallerOptions<DeleteGameReply, string>) =>
  useInvalidatingMutation((gameName: string) => apiRequest<DeleteGameReply>('DELETE', scraperPaths.game(gameName)), productKeys, options);

export const usePublishSelected = (options?: CallerOptions<PublishSelectedReply, number[]>) =>
  useInvalidatingMutation((productIds: number[]) => apiRequest<PublishSelectedReply>('POST', scraperPaths.publishSelected, { productIds }), publicationKeys, options);

export const useSyncDeletions = (options?: CallerOptions<SyncDeletionsReply, void>) =>
  useInvalidatingMutation(() => apiRequest<SyncDeletionsReply>('POST', scraperPaths.syncDeletions), publicationKeys, options);

export const useSyncPrices = (options?: CallerOptions<SyncPricesReply, void>) =>
  useInvalidatingMutation(() => apiRequest<SyncPricesReply>('POST', scraperPaths.syncPrices), [scraperKeys.mappings], options);

/** Pushing the changed prices clears their Changed marks: the rows and the games' counts. */
export const useSyncChangedPrices = (options?: CallerOptions<SyncChangedReply, void>) =>
  useInvalidatingMutation(() => apiRequest<SyncChangedReply>('POST', scraperPaths.syncChangedPrices), [scraperKeys.productsAll, scraperKeys.games, scraperKeys.mappings], options);
