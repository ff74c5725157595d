/** The monitoring calls the overview reads. Their shapes are the route contracts' (types only). */
import type { analyticsEndpoints, analyticsOverview, analyticsTimeline, importDatabase, latestRequests, listAlerts, ReplyOf } from '@bo/proto';
import { apiKey, apiKeyPrefix, apiPath } from '../../lib/paths';

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
/** What a dry run would do per table (docs/database-export.md). */
export type ImportCheck = Extract<ReplyOf<typeof importDatabase>, { dryRun: true }>;
/** The import itself answers the run that applies the file (Background work); its result is an ImportResult. */
export type ImportStarted = Extract<ReplyOf<typeof importDatabase>, { dryRun: false }>;
export type { ImportResult, MigrationMetadata, TableImportView } from '@bo/proto';

export const overviewKeys = {
  health: apiKey('/health'),
  requests: apiKey('/api/monitoring/requests'),
  analytics: apiKeyPrefix('/api/analytics'),
  analyticsOverview: apiKey('/api/analytics', 'overview'),
  endpoints: apiKey('/api/analytics', 'endpoints'),
  timeline: apiKey('/api/analytics', 'timeline'),
  firingAlerts: apiKey('/api/admin/alerts', '?status=firing'),
} as const;

/** Polling of document 1, section 9. */
export const overviewPolling = { health: 30_000, requests: 10_000, analytics: 30_000, alerts: 30_000 } as const;

/** The Database Migration card's calls (contracts exportDatabase and importDatabase). */
export const migrationPaths = {
  export: '/api/migration/export',
  open: '/api/migration/open',
  import: (dryRun: boolean) => apiPath('/api/migration/import', {}, { dryRun }),
} as const;
