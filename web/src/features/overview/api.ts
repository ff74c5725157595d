/** The monitoring calls the overview reads. Their shapes are the route contracts' (types only). */
import type { analyticsEndpoints, analyticsOverview, analyticsTimeline, latestRequests, listAlerts, ReplyOf } from '@bo/proto';

/**
 * The latest entries and, in `total`, how many the log holds in all (gateway/src/routes/monitoring.ts;
 * the contract's reply schema does not list `total` yet).
 */
export type RequestLog = ReplyOf<typeof latestRequests> & { total: number };
export type RequestLogEntry = RequestLog['data'][number];
export type AnalyticsOverviewReply = ReplyOf<typeof analyticsOverview>;
export type EndpointStatsReply = ReplyOf<typeof analyticsEndpoints>;
export type TimelineReply = ReplyOf<typeof analyticsTimeline>;
export type AlertsReply = ReplyOf<typeof listAlerts>;

export const overviewKeys = {
  health: ['/health'],
  requests: ['/api/monitoring/requests'],
  analytics: ['/api/analytics'],
  analyticsOverview: ['/api/analytics', 'overview'],
  endpoints: ['/api/analytics', 'endpoints'],
  timeline: ['/api/analytics', 'timeline'],
  firingAlerts: ['/api/admin/alerts', '?status=firing'],
} as const;

/** Polling of document 1, section 9. */
export const overviewPolling = { health: 30_000, requests: 10_000, analytics: 30_000, alerts: 30_000 } as const;
