import { useQuery } from '@tanstack/react-query';
import { pollEvery, queryKeys } from './query-keys';
import type {
  AnalyticsOverview, AuthUser, CacheStatus, ConfigStatusItem, Data, EndpointStat, PriceList, PriceRow,
  RequestLogEntry, ServerInfo, TimelinePoint,
} from './types';

/** The signed-in user: fresh for 5 minutes, one retry (document 1, section 7). */
export const useAuthUser = () =>
  useQuery<AuthUser>({ queryKey: queryKeys.authUser.all, staleTime: 5 * 60_000, retry: 1 });

export const useServerInfo = () => useQuery<ServerInfo>({ queryKey: queryKeys.serverInfo.all });

export const useHealth = () => useQuery<unknown>({ queryKey: queryKeys.health.all, refetchInterval: pollEvery.health });

export const usePriceSummary = () =>
  useQuery<PriceList<unknown>>({ queryKey: queryKeys.prices.summary, refetchInterval: pollEvery.prices });

export const usePriceRows = () =>
  useQuery<PriceList<PriceRow>>({ queryKey: queryKeys.prices.rows, refetchInterval: pollEvery.prices });

export const useCacheStatus = () =>
  useQuery<CacheStatus>({ queryKey: queryKeys.cacheStatus.all, refetchInterval: pollEvery.cacheStatus });

export const useRequestLog = () =>
  useQuery<Data<RequestLogEntry[]>>({ queryKey: queryKeys.requests.all, refetchInterval: pollEvery.requests });

export const useAnalyticsOverview = () =>
  useQuery<Data<AnalyticsOverview>>({ queryKey: queryKeys.analytics.overview, refetchInterval: pollEvery.analytics });

export const useEndpointStats = () =>
  useQuery<Data<EndpointStat[]>>({ queryKey: queryKeys.analytics.endpoints, refetchInterval: pollEvery.analytics });

export const useTimeline = () =>
  useQuery<Data<TimelinePoint[]>>({ queryKey: queryKeys.analytics.timeline, refetchInterval: pollEvery.analytics });

export const useConfigStatus = () => useQuery<Data<ConfigStatusItem[]>>({ queryKey: queryKeys.configStatus.all });
