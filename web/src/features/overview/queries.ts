import { useQuery } from '@tanstack/react-query';
import { overviewKeys, overviewPolling, type AnalyticsOverviewReply, type EndpointStatsReply, type RequestLog, type TimelineReply } from './api';

export const useHealth = () => useQuery<unknown>({ queryKey: overviewKeys.health, refetchInterval: overviewPolling.health });

export const useRequestLog = () => useQuery<RequestLog>({ queryKey: overviewKeys.requests, refetchInterval: overviewPolling.requests });

export const useAnalyticsOverview = () =>
  useQuery<AnalyticsOverviewReply>({ queryKey: overviewKeys.analyticsOverview, refetchInterval: overviewPolling.analytics });

export const useEndpointStats = () =>
  useQuery<EndpointStatsReply>({ queryKey: overviewKeys.endpoints, refetchInterval: overviewPolling.analytics });

export const useTimeline = () =>
  useQuery<TimelineReply>({ queryKey: overviewKeys.timeline, refetchInterval: overviewPolling.analytics });
