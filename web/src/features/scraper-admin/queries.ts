import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  ACTIVE_JOBS_POLL_MS, isActiveJob, scraperKeys, type ComparisonReply, type ExchangeRateReply, type GamesReply, type JobsReply, type MappingsReply,
  type MarketplacesReply, type ProductsReply, type TiersReply,
} from './api';

export const useExchangeRate = () => useQuery<ExchangeRateReply>({ queryKey: scraperKeys.exchangeRate });
export const useCommissionTiers = () => useQuery<TiersReply>({ queryKey: scraperKeys.tiers });
export const useMarketplaces = () => useQuery<MarketplacesReply>({ queryKey: scraperKeys.marketplaces });

/** The latest jobs, newest first; asked for again every 2 s while one of them is waiting or running. */
export const useScrapeJobs = () =>
  useQuery<JobsReply>({
    queryKey: scraperKeys.jobs,
    refetchInterval: (query) => (query.state.data?.data.some(isActiveJob) ? ACTIVE_JOBS_POLL_MS : false),
  });

/** A page of products (50); the page on screen stays until the next one arrives. */
export const useScrapedProducts = (page: number) => useQuery<ProductsReply>({ queryKey: scraperKeys.products(page), placeholderData: keepPreviousData });
export const useProductGames = () => useQuery<GamesReply>({ queryKey: scraperKeys.games });
export const useProductMappings = () => useQuery<MappingsReply>({ queryKey: scraperKeys.mappings });
export const useComparison = () => useQuery<ComparisonReply>({ queryKey: scraperKeys.comparison });
