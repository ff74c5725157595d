import { useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api';
import { useInvalidatingMutation, type CallerOptions } from '../../lib/mutation';
import { sheetKeys } from '../sheets/api';
import {
  shopKeys, shopPaths, type AddMappingReply, type AutoMapReply, type ExportReply, type NewMapping, type OrderSearch, type OrderSearchReply,
  type SyncOneReply, type SyncRunReply,
} from './api';

/**
 * What changes mappings or prices also makes a price check on screen stale: it is asked for again,
 * but not waited for (it reads every mapped product from the shop; the result, the toast and a
 * closing dialog need not wait on it). A check the operator never asked for is not fetched.
 */
function useRefreshingCheck<TData, TVariables>(options: CallerOptions<TData, TVariables> = {}): CallerOptions<TData, TVariables> {
  const queryClient = useQueryClient();
  return {
    ...options,
    onSuccess: (...args) => {
      void queryClient.invalidateQueries({ queryKey: shopKeys.reconciliation });
      return options.onSuccess?.(...args);
    },
  };
}

/** Sync changes the mappings' last synced prices and times, and starts a new latest run. */
export const useSyncAll = (options?: CallerOptions<SyncRunReply, void>) =>
  useInvalidatingMutation(() => apiRequest<SyncRunReply>('POST', shopPaths.sync), [shopKeys.mappings, shopKeys.latestSyncRun], useRefreshingCheck(options));

/** The check's Fix: the check itself is the thing to refresh, and the table under it waits for that. */
export const useSyncOne = (options?: CallerOptions<SyncOneReply, string>) =>
  useInvalidatingMutation(
    (productName: string) => apiRequest<SyncOneReply>('POST', shopPaths.syncOne(productName)),
    [shopKeys.mappings, shopKeys.reconciliation],
    options,
  );

export const useAutoMap = (options?: CallerOptions<AutoMapReply, void>) =>
  useInvalidatingMutation(() => apiRequest<AutoMapReply>('POST', shopPaths.autoMap), [shopKeys.mappings], useRefreshingCheck(options));

/** The export writes the shop's catalogue into the sheet: every price-list query reloads. */
export const useExportToSheets = (options?: CallerOptions<ExportReply, void>) =>
  useInvalidatingMutation(() => apiRequest<ExportReply>('POST', shopPaths.exportToSheets), [sheetKeys.prices], useRefreshingCheck(options));

export const useAddMapping = (options?: CallerOptions<AddMappingReply, NewMapping>) =>
  useInvalidatingMutation(
    (mapping: NewMapping) => apiRequest<AddMappingReply>('POST', shopPaths.mappings, mapping),
    [shopKeys.mappings],
    useRefreshingCheck(options),
  );

export const useDeleteMapping = (options?: CallerOptions<unknown, string>) =>
  useInvalidatingMutation((productName: string) => apiRequest('DELETE', shopPaths.mapping(productName)), [shopKeys.mappings], useRefreshingCheck(options));

/** A search changes nothing: nothing to invalidate. */
export const useOrderSearch = (options?: CallerOptions<OrderSearchReply, OrderSearch>) =>
  useInvalidatingMutation((search: OrderSearch) => apiRequest<OrderSearchReply>('POST', shopPaths.orderSearch, search), [], options);
