import { apiRequest } from '../../lib/api';
import { useInvalidatingMutation, type CallerOptions } from '../../lib/mutation';
import { sheetKeys } from '../sheets/api';
import {
  shopKeys, shopPaths, type AddMappingReply, type AutoMapReply, type ExportReply, type NewMapping, type OrderSearch, type OrderSearchReply,
  type SyncOneReply, type SyncRunReply,
} from './api';

/** Sync changes the mappings' last synced prices and times, and starts a new latest run. */
export const useSyncAll = (options?: CallerOptions<SyncRunReply, void>) =>
  useInvalidatingMutation(() => apiRequest<SyncRunReply>('POST', shopPaths.sync), [shopKeys.mappings, shopKeys.latestSyncRun], options);

export const useSyncOne = (options?: CallerOptions<SyncOneReply, string>) =>
  useInvalidatingMutation(
    (productName: string) => apiRequest<SyncOneReply>('POST', shopPaths.syncOne(productName)),
    [shopKeys.mappings, shopKeys.reconciliation],
    options,
  );

export const useAutoMap = (options?: CallerOptions<AutoMapReply, void>) =>
  useInvalidatingMutation(() => apiRequest<AutoMapReply>('POST', shopPaths.autoMap), [shopKeys.mappings], options);

/** The export writes the shop's catalogue into the sheet: every price-list query reloads. */
export const useExportToSheets = (options?: CallerOptions<ExportReply, void>) =>
  useInvalidatingMutation(() => apiRequest<ExportReply>('POST', shopPaths.exportToSheets), [sheetKeys.prices], options);

export const useAddMapping = (options?: CallerOptions<AddMappingReply, NewMapping>) =>
  useInvalidatingMutation((mapping: NewMapping) => apiRequest<AddMappingReply>('POST', shopPaths.mappings, mapping), [shopKeys.mappings], options);

export const useDeleteMapping = (options?: CallerOptions<unknown, string>) =>
  useInvalidatingMutation((productName: string) => apiRequest('DELETE', shopPaths.mapping(productName)), [shopKeys.mappings], options);

/** A search changes nothing: nothing to invalidate. */
export const useOrderSearch = (options?: CallerOptions<OrderSearchReply, OrderSearch>) =>
  useInvalidatingMutation((search: OrderSearch) => apiRequest<OrderSearchReply>('POST', shopPaths.orderSearch, search), [], options);
