import { useQuery, type QueryClient } from '@tanstack/react-query';
import { sheetKeys } from '../sheets/api';
import { overviewKeys, overviewPolling, type AlertsReply, type AnalyticsOverviewReply, type EndpointStatsReply, type RequestLog, type TimelineReply } from './api';

export const useHealth = () => useQuery<unknown>({ queryKey: overviewKeys.health, refetchInterval: overviewPolling.health });

export const useRequestLog = () => useQuery<RequestLog>({ queryKey: overviewKeys.requests, refetchInterval: overviewPolling.requests });

export const useAnalyticsOverview = () =>
  useQuery<AnalyticsOverviewReply>({ queryKey: overviewKeys.analyticsOverview, refetchInterval: overviewPolling.analytics });

export const useEndpointStats = () =>
  useQuery<EndpointStatsReply>({ queryKey: overviewKeys.endpoints, refetchInterval: overviewPolling.analytics });

/** The alerts firing in every service (docs/alerts.md), firing first; the services that did not answer are named. */
export const useFiringAlerts = () => useQuery<AlertsReply>({ queryKey: overviewKeys.firingAlerts, refetchInterval: overviewPolling.alerts });

export const useTimeline = () =>
  useQuery<TimelineReply>({ queryKey: overviewKeys.timeline, refetchInterval: overviewPolling.analytics });

/**
 * The overview's calls, all at once, into the cache its hooks read: first-screen.ts starts them as
 * soon as the session check says admin, instead of after the shell and the page have rendered.
 */
export function prefetchOverview(client: QueryClient): void {
  for (const queryKey of [overviewKeys.health, overviewKeys.requests, sheetKeys.prices, overviewKeys.analyticsOverview, overviewKeys.endpoints]) {
    void client.prefetchQuery({ queryKey });
  }
}
