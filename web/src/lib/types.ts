/** Reply shapes of the gateway calls the dashboard reads. Price rows come from the shared contracts. */
export type { CacheStatus, PriceRow, WoocommerceSyncOutcome } from '@bo/proto/http/prices';
import type { PriceRow, WoocommerceSyncOutcome } from '@bo/proto/http/prices';

export interface AuthUser {
  id: string;
  email: string | null;
  firstName: string | null;
  lastName: string | null;
  profileImageUrl: string | null;
  isAdmin: boolean;
}

export interface ServerInfo {
  runtime?: { node?: string };
}

export interface PriceList<Row> {
  data: Row[];
  count: number;
  lastUpdated?: string;
}

export interface RequestLogEntry {
  id: string | number;
  method: string;
  endpoint: string;
  statusCode: string;
  responseTime: string;
  timestamp: string;
}

export interface AnalyticsOverview {
  totalRequests: number;
  avgResponseTime: number;
  uniqueEndpoints: number;
  successRate: number;
}

export interface EndpointStat {
  endpoint: string;
  method: string;
  count: number;
  avgResponseTime: number;
}

export interface TimelinePoint {
  hour: string;
  requests: number;
  avgResponseTime: number;
}

export interface ConfigStatusItem {
  name: string;
  category: string;
  configured: boolean;
  simulated?: boolean;
}

export interface Data<T> {
  data: T;
}

/** The whole edited row; `originalProduct` names the row when the product name itself was edited. */
export type SheetRowUpdate = PriceRow & { originalProduct: string };

export interface SheetUpdateReply {
  success: boolean;
  woocommerceSync: WoocommerceSyncOutcome;
}
