import { useQuery } from '@tanstack/react-query';
import {
  shopKeys, shopPolling, type LatestSyncRunReply, type MappingsReply, type OrderReply, type PricePushesReply, type ReconciliationReply,
  type ShopProductsReply, type StoreStatusReply,
} from './api';

export const useStoreStatus = () => useQuery<StoreStatusReply>({ queryKey: shopKeys.status, refetchInterval: shopPolling.status });

/** Document 1, section 7: asked for only while the shop is connected; the page reads its count. */
export const useShopProducts = (connected: boolean) => useQuery<ShopProductsReply>({ queryKey: shopKeys.products, enabled: connected });

export const useMappings = () => useQuery<MappingsReply>({ queryKey: shopKeys.mappings });

/** The latest sync of all products, followed every second while it runs (or while a sync request is out). */
export const useLatestSyncRun = (syncRequested: boolean) =>
  useQuery<LatestSyncRunReply>({
    queryKey: shopKeys.latestSyncRun,
    refetchInterval: (query) => (syncRequested || query.state.data?.data?.status === 'running' ? shopPolling.runningSync : false),
  });

/** Compared only when the operator asks (it reads every mapped product from the shop). */
export const useReconciliation = (requested: boolean) =>
  useQuery<ReconciliationReply>({ queryKey: shopKeys.reconciliation, enabled: requested });

export const usePricePushes = () =>
  useQuery<PricePushesReply>({
    queryKey: shopKeys.pricePushes,
    refetchInterval: (query) => (query.state.data?.data.some((push) => push.outcome === 'pending') ? shopPolling.pendingPushes : false),
  });

export const useOrder = (id: number | null) =>
  useQuery<OrderReply>({ queryKey: shopKeys.order(id ?? 0), enabled: id !== null });
