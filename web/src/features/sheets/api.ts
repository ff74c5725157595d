/** The price-sheet calls. Their shapes are the route contracts' (types only: no zod in the bundle). */
import type { listPrices, PriceRow, ReplyOf, RequestBodyOf, updateSheetRow } from '@bo/proto';
import { apiKey, queryString } from '../../lib/paths';

export type { CacheStatus, PriceRow, WoocommerceSyncOutcome } from '@bo/proto';

/** The price list; with `?format=array` its data are whole sheet rows. */
export type PriceList = ReplyOf<typeof listPrices>;
export type PriceRows = Omit<PriceList, 'data'> & { data: PriceRow[] };

/** The whole edited row; `originalProduct` names the row as it was when editing started. */
export type SheetRowUpdate = Extract<RequestBodyOf<typeof updateSheetRow>, { originalProduct?: string }> & { originalProduct: string };
export type SheetUpdateReply = ReplyOf<typeof updateSheetRow>;

/** A key joined with slashes is the GET path, so a resource's `all` key invalidates its other keys. */
export const sheetKeys = {
  prices: apiKey('/api/prices'),
  priceRows: apiKey('/api/prices', queryString({ format: 'array' })),
  cacheStatus: apiKey('/api/cache/status'),
} as const;

export const sheetPaths = {
  update: '/api/sheets/update',
  clearCache: '/api/cache/invalidate',
} as const;

/** Polling of document 1, section 9. */
export const sheetPolling = { prices: 60_000, cacheStatus: 5_000 } as const;
