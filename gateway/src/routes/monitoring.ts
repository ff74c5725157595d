import { serveRoute } from '@bo/platform';
import { analyticsEndpoints, analyticsOverview, analyticsTimeline, latestRequests } from '@bo/proto';
import type { FastifyInstance } from 'fastify';
import type { RequestLogQueries } from '../store/request-log';

const LATEST_LIMIT = 100;
const TOP_ENDPOINTS = 10;
const TIMELINE_HOURS = 24;

const ms = (value: number) => Math.round(value);

/** The request log and the analytics read from it (document 1, sections 3 and 7). Admin only. */
export function registerMonitoringRoutes(app: FastifyInstance, queries: RequestLogQueries): void {
  // `data` is the latest page; `total` counts the whole log (the overview's Total Requests).
  serveRoute(app, latestRequests, async () => ({
    total: await queries.count(),
    data: (await queries.latest(LATEST_LIMIT)).map((row) => ({
      id: Number(row.id),
      method: row.method,
      endpoint: row.endpoint,
      statusCode: String(row.statusCode),
      responseTime: `${row.responseTime}ms`,
      timestamp: row.timestamp.toISOString(),
    })),
  }));

  serveRoute(app, analyticsOverview, async () => {
    const { total, avgResponseTime, uniqueEndpoints, successful } = await queries.overview();
    return {
      data: {
        totalRequests: total,
        avgResponseTime: ms(avgResponseTime),
        uniqueEndpoints,
        // Percent of answers below 400, one decimal.
        successRate: total === 0 ? 100 : Math.round((successful / total) * 1000) / 10,
      },
    };
  });

  serveRoute(app, analyticsEndpoints, async () => ({
    data: (await queries.topEndpoints(TOP_ENDPOINTS)).map((row) => ({ ...row, avgResponseTime: ms(row.avgResponseTime) })),
  }));

  serveRoute(app, analyticsTimeline, async () => ({
    data: (await queries.hourly(new Date(Date.now() - TIMELINE_HOURS * 3_600_000))).map((row) => ({
      hour: row.hour.toISOString(),
      requests: row.requests,
      avgResponseTime: ms(row.avgResponseTime),
    })),
  }));
}
