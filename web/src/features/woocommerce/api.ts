/** The online-shop calls of /woocommerce. Their shapes are the route contracts' (types only: no zod in the bundle). */
import type {
  addMapping, autoMap, exportToSheets, getOrder, latestSyncRun, listMappings, reconciliation, recentPricePushes, ReplyOf,
  RequestBodyOf, searchOrders, shopProducts, storeStatus, syncAll, syncOne,
} from '@bo/proto';
import { apiKey, apiPath, queryString } from '../../lib/paths';

export type { AutoMapResult, OrderSummary, PricePush, ProductMapping, StoreStatus, SyncRun } from '@bo/proto';

export type StoreStatusReply = ReplyOf<typeof storeStatus>;
export type ShopProductsReply = ReplyOf<typeof shopProducts>;
export type MappingsReply = ReplyOf<typeof listMappings>;
export type NewMapping = { productName: string; woocommerceId: number };
export type AddMappingReply = ReplyOf<typeof addMapping>;
export type SyncRunReply = ReplyOf<typeof syncAll>;
export type LatestSyncRunReply = ReplyOf<typeof latestSyncRun>;
export type SyncOneReply = ReplyOf<typeof syncOne>;
export type AutoMapReply = ReplyOf<typeof autoMap>;
export type ExportReply = ReplyOf<typeof exportToSheets>;
export type ReconciliationReply = ReplyOf<typeof reconciliation>;
export type PriceDifference = ReconciliationReply['differences'][number];
export type PricePushesReply = ReplyOf<typeof recentPricePushes>;
export type OrderReply = ReplyOf<typeof getOrder>;
export type OrderSearch = RequestBodyOf<typeof searchOrders>;
export type OrderSearchReply = ReplyOf<typeof searchOrders>;

/** How many price edits the recent-pushes card lists. */
export const PRICE_PUSHES_SHOWN = 20;

/** A key joined with slashes is the GET path, so a resource's first part invalidates its other keys. */
export const shopKeys = {
  status: apiKey('/api/woocommerce/status'),
  products: apiKey('/api/woocommerce/products'),
  mappings: apiKey('/api/woocommerce/mappings'),
  latestSyncRun: apiKey('/api/woocommerce/sync-runs', 'latest'),
  reconciliation: apiKey('/api/woocommerce/reconciliation'),
  pricePushes: apiKey('/api/woocommerce/price-pushes', queryString({ limit: PRICE_PUSHES_SHOWN })),
  order: (id: number) => apiKey('/api/woocommerce/order', String(id)),
} as const;

export const shopPaths = {
  mappings: '/api/woocommerce/mappings',
  mapping: (productName: string) => apiPath('/api/woocommerce/mappings/:productName', { productName }),
  sync: '/api/woocommerce/sync',
  syncOne: (productName: string) => apiPath('/api/woocommerce/sync/:productName', { productName }),
  autoMap: '/api/woocommerce/auto-map',
  exportToSheets: '/api/woocommerce/export-to-sheets',
  orderSearch: '/api/woocommerce/order/search',
} as const;

/**
 * Document 1, section 9: the shop's status every 30 s. A running sync is followed every second;
 * price pushes still waiting for the shop's answer are asked for again every 2 s.
 */
export const shopPolling = { status: 30_000, runningSync: 1_000, pendingPushes: 2_000 } as const;
